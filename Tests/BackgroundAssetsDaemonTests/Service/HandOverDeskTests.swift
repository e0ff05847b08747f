/*
Abstract:
Tests for the hand-over desk: a challenge sent to delegates is answered once.
*/

@testable import BackgroundAssetsDaemon
import Testing

@Suite("Challenges in flight")
struct HandOverDeskTests {
    @Test("A challenge is answered once: the first answer gets its download, later ones nothing")
    func challengesAnsweredOnce() {
        var desk = HandOverDesk()
        desk.ask(5, rowID: 9)
        #expect(desk.answer(5) == 9)
        #expect(desk.answer(5) == nil)
        #expect(desk.answer(6) == nil)
    }
}
