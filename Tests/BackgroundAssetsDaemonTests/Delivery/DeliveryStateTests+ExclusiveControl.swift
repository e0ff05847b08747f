/*
Abstract:
Tests that a file finishing while its app holds exclusive control with no delegate stays listed to the app until it lets go.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

extension DeliveryStateTests {
    /// Well past the reconnect grace of a service created at `start`.
    static let later = start.addingTimeInterval(60)

    @Test("A file that finishes while the app holds exclusive control with no delegate waits, listed to it, and goes to the extension when it lets go")
    func heldWhileTheAppHasControl() {
        var state = DeliveryState(createdAt: Self.start)
        let file = Self.finished(7)
        let held = state.finished(file, delegates: [], isInstalled: true, isPresent: true, appHoldsControl: true, at: Self.later)
        #expect(held == [.holdWhileAppHasControl(file)], "not given to the extension while the app looks at its downloads")
        #expect(state.rows(of: Self.app) == [7], "listed to the app")
        #expect(state.appsHoldingFilesUnderControl == [Self.app])
        let graceEnded = state.reconnectGraceEnded(
            at: Self.later, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true })
        #expect(graceEnded.isEmpty, "the reconnect grace does not end this hold")

        let letGo = state.controlLeft(app: Self.app, delegates: [], isInstalled: true, isPresent: { _ in true }, at: Self.later)
        #expect(letGo == [.giveToExtension(file)])
        #expect(state.rows(of: Self.app).isEmpty)
        #expect(state.appsHoldingFilesUnderControl.isEmpty)
        #expect(state.controlLeft(app: Self.app, delegates: [], isInstalled: true, isPresent: { _ in true }, at: Self.later).isEmpty)
    }

    @Test("A delegate set while the app holds exclusive control receives the file held for it at once")
    func delegateSetUnderControl() {
        var state = DeliveryState(createdAt: Self.start)
        let file = Self.finished(7)
        _ = state.finished(file, delegates: [], isInstalled: true, isPresent: true, appHoldsControl: true, at: Self.later)
        #expect(state.delegateSet(app: Self.app, delegates: [4], isPresent: { _ in true }) == [.offer(id: 1, file, to: [4])])
        #expect(state.appsHoldingFilesUnderControl.isEmpty)
        #expect(state.controlLeft(app: Self.app, delegates: [4], isInstalled: true, isPresent: { _ in true }, at: Self.later).isEmpty,
                "already on its way to the delegate")
    }

    @Test("Files a restarted service holds wait for the app to let go when its grace ends under the app's control; one gone by then is fetched again")
    func graceEndsUnderControl() {
        var state = Self.restarted()
        let kept = Self.finished(7)
        let lost = Self.finished(8)
        _ = state.finished(kept, delegates: [], isInstalled: true, isPresent: true, at: Self.at(10))
        _ = state.finished(lost, delegates: [], isInstalled: true, isPresent: true, at: Self.at(20))
        let graceEnded = state.reconnectGraceEnded(
            at: Self.graceEnd, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true },
            appHoldsControl: { $0 == Self.app })
        #expect(graceEnded == [.holdWhileAppHasControl(kept), .holdWhileAppHasControl(lost)])
        #expect(state.rows(of: Self.app) == [7, 8])

        let letGo = state.controlLeft(app: Self.app, delegates: [], isInstalled: true, isPresent: { $0 == kept.file }, at: Self.later)
        #expect(letGo == [.giveToExtension(kept), .fetchAgain(lost)], "never reported as delivered without its bytes")
    }

    @Test("An app that holds exclusive control but is not installed owns nothing: its file is deleted as before")
    func notInstalledUnderControl() {
        var state = DeliveryState(createdAt: Self.start)
        let file = Self.finished(7)
        #expect(state.finished(file, delegates: [], isInstalled: false, isPresent: true, appHoldsControl: true, at: Self.later)
                == [.release(file, .noOwner)])
    }
}
