/*
Abstract:
Tests for the hand-over desk: a file ends once every delegate returns, or goes to the extension when none did.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Hand-overs in flight")
struct HandOverDeskTests {
    static let file = URL(fileURLWithPath: "/device/containers/g/Library/Caches/com.apple.BackgroundAssets/BAFile-7-x.tmp")

    @Test("A file ends once the last delegate it was sent to returns, not before")
    func endsWithLastAcknowledgement() {
        var desk = HandOverDesk()
        desk.offer(1, file: Self.file, rowID: 7, app: "com.example.app", to: [10, 11])
        #expect(desk.rowsBeingHandedOver(app: "com.example.app") == [7])
        #expect(desk.acknowledge(1, from: 10) == nil)
        #expect(desk.delivery(1)?.pending == [11])
        let delivered = desk.acknowledge(1, from: 11)
        #expect(delivered?.rowID == 7 && delivered?.isAcknowledged == true)
        #expect(desk.delivery(1) == nil)
        #expect(desk.rowsBeingHandedOver(app: "com.example.app").isEmpty)
        #expect(desk.acknowledge(1, from: 11) == nil, "a second acknowledgement changes nothing")
    }

    @Test("When every delegate leaves before returning, the file is orphaned for the extension and stays listed")
    func orphanedWhenAllLeave() {
        var desk = HandOverDesk()
        desk.offer(1, file: Self.file, rowID: 7, app: "com.example.app", to: [10, 11])
        #expect(desk.connectionClosed(10).isEmpty)
        let ended = desk.connectionClosed(11)
        #expect(ended.count == 1 && ended[0].id == 1)
        guard case let .orphaned(delivery) = ended.first?.ending else {
            Issue.record("expected an orphaned delivery, got \(ended)")
            return
        }
        #expect(delivery.rowID == 7)
        // Still listed until the service has handed it to the extension.
        #expect(desk.rowsBeingHandedOver(app: "com.example.app") == [7])
        #expect(desk.remove(1)?.rowID == 7)
        #expect(desk.rowsBeingHandedOver(app: "com.example.app").isEmpty)
    }

    @Test("A delegate that returned, then left, leaves a delivered file to delete")
    func deliveredWhenOneReturned() {
        var desk = HandOverDesk()
        desk.offer(1, file: Self.file, rowID: 7, app: "com.example.app", to: [10, 11])
        #expect(desk.acknowledge(1, from: 10) == nil)
        #expect(desk.connectionClosed(11).map(\.ending) == [.delivered(HandOverDesk.Delivery(
            file: Self.file, rowID: 7, app: "com.example.app", pending: [], isAcknowledged: true))])
        #expect(desk.delivery(1) == nil)
    }

    @Test("A challenge is answered once: the first answer gets its download, later ones nothing")
    func challengesAnsweredOnce() {
        var desk = HandOverDesk()
        desk.ask(5, rowID: 9)
        #expect(desk.answer(5) == 9)
        #expect(desk.answer(5) == nil)
        #expect(desk.answer(6) == nil)
    }

    @Test("Files from an earlier run are found by their names, listed with the app's rows, and taken once")
    func undeliveredFiles() throws {
        let fixture = try StoreFixture()
        let paths = DevicePaths(root: fixture.directory.url)
        let finished = try fixture.store.insert(StoreFixture.download("finished"), at: StoreFixture.epoch)
        try fixture.store.update(id: finished.id, at: StoreFixture.epoch) { $0.state = .finished }
        let running = try fixture.store.insert(StoreFixture.download("running"), at: StoreFixture.epoch)
        let folder = try #require(paths.container(forAppGroup: "group.com.example.sessions"))
            .appending(path: StagingArea.handOverFolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = [
            StagingArea.handOverName(rowID: finished.id), StagingArea.handOverName(rowID: running.id),
            StagingArea.handOverName(rowID: 999), "manifest.json",
        ]
        for name in names { try Data("x".utf8).write(to: folder.appending(path: name)) }

        var desk = HandOverDesk()
        desk.keepUndelivered(UndeliveredFiles.scan(paths: paths, store: fixture.store))
        #expect(desk.hasUndelivered)
        #expect(desk.rowsBeingHandedOver(app: StoreFixture.app) == [finished.id], "only the finished download's file")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!left.contains(names[2]), "a file whose download is gone is deleted")
        #expect(!left.contains(names[1]), "a file whose download runs again is deleted: it hands over its own")
        #expect(Set(left) == [names[0], names[3]])
        #expect(desk.takeUndelivered(app: "com.example.other").isEmpty)
        #expect(desk.takeUndelivered(app: StoreFixture.app).map(\.rowID) == [finished.id])
        #expect(desk.takeUndelivered(app: nil).isEmpty, "taken once")
        #expect(!desk.hasUndelivered)
    }
}
