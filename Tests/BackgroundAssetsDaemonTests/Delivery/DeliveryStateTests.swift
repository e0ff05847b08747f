/*
Abstract:
Tests for the delivery of finished files, driven by events: a finished file reaches its owner, through restarts, and is never deleted before.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Delivering finished files")
struct DeliveryStateTests {
    static let app = "com.example.sessions"
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A finished download of `app` and its file in the hand-over folder.
    static func finished(_ id: Int64, app: String = app) -> FinishedFile {
        let descriptor = DownloadDescriptor(
            identifier: "wwdc23-\(id)", uniqueIdentifier: "unique-\(id)", url: "https://cdn.example.com/\(id).mp4",
            fileSize: 100, applicationGroupIdentifier: "group.com.example.sessions", state: .finished)
        let row = DownloadRow(
            id: id, bundleIdentifier: app, descriptor: descriptor, isForeground: false, bytesDurable: 100,
            expectedLength: 100, entityTag: nil, lastModified: nil, attempts: 1, lastError: nil, createdAt: start,
            updatedAt: start, nextAttemptAt: start, lastProgressAt: nil)
        let file = URL(fileURLWithPath: "/device/containers/group.com.example.sessions/Library/Caches/com.apple.BackgroundAssets/BAFile-\(id)-x.tmp")
        return FinishedFile(row: row, file: file)
    }

    /// `start` plus some milliseconds.
    static func at(_ milliseconds: Int) -> Date {
        start.addingTimeInterval(Double(milliseconds) / 1000)
    }

    static let graceEnd = start.addingTimeInterval(DeliveryState.reconnectGrace)

    /// A service that was just created and started at `start`.
    static func restarted() -> DeliveryState {
        var state = DeliveryState(createdAt: start)
        state.serviceStarts(at: start)
        return state
    }

    @Test("Route 1: a resumed download that finishes 10 ms after the restart, before any delegate reconnects, is held, then given to the delegate")
    func finishedBeforeTheDelegateReconnects() {
        var state = Self.restarted()
        let file = Self.finished(7)
        let held = state.finished(file, delegates: [], isInstalled: true, isPresent: true, at: Self.at(10))
        #expect(held == [.hold(file), .armGraceTimer(at: Self.graceEnd)], "held, not deleted nor given to the extension")
        #expect(state.rows(of: Self.app) == [7], "listed to the app while held")

        let reconnected = state.delegateSet(app: Self.app, delegates: [4], isPresent: { _ in true })
        #expect(reconnected == [.offer(id: 1, file, to: [4])])
        #expect(state.heldFiles(of: Self.app).isEmpty)
        #expect(state.acknowledged(1, by: 4) == [.release(file, .delivered)], "deleted only once the owner has it")
        #expect(state.reconnectGraceEnded(at: Self.graceEnd, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true }).isEmpty)
    }

    @Test("The hold is in force from the service's creation, before it starts: nothing finishes unheld")
    func holdsBeforeStart() {
        var state = DeliveryState(createdAt: Self.start)
        let file = Self.finished(7)
        #expect(state.isHolding(at: Self.start))
        #expect(state.finished(file, delegates: [], isInstalled: true, isPresent: true, at: Self.at(1)).first == .hold(file))
    }

    @Test("Route 2: the files found at start and a file held meanwhile are all kept, and the delegate reconnecting 12 ms later gets them all")
    func heldAndFoundReachTheReconnectingDelegate() {
        var state = Self.restarted()
        let (early, left, other) = (Self.finished(7), Self.finished(8), Self.finished(9, app: "com.example.other"))
        _ = state.finished(early, delegates: [], isInstalled: true, isPresent: true, at: Self.at(5))
        // The scan of the hand-over folders finds the held file too: one delivery, not two, and nothing dropped.
        #expect(state.found([early, left, other]) == [.hold(left), .hold(other)])
        #expect(state.rows(of: Self.app) == [7, 8])

        let actions = state.delegateSet(app: Self.app, delegates: [3], isPresent: { _ in true })
        #expect(actions == [.offer(id: 1, early, to: [3]), .offer(id: 2, left, to: [3])])
        #expect(state.heldFiles(of: "com.example.other") == [other], "another app's file waits for its own delegate")
    }

    @Test("A held file survives any number of restarts: every service finds and holds it again until a delegate has it")
    func heldAcrossKills() {
        let file = Self.finished(7)
        for _ in 1...5 {
            // A kill loses the value; the file and its kept name stay in the folder, and the next scan finds them.
            var state = Self.restarted()
            #expect(state.found([file]) == [.hold(file), .armGraceTimer(at: Self.graceEnd)])
            #expect(!state.reconnectGraceEnded(at: Self.at(1000), delegates: { _ in [] }, isInstalled: { _ in true },
                                               isPresent: { _ in true }).contains { if case .release = $0 { true } else { false } })
        }
        var last = Self.restarted()
        _ = last.found([file])
        #expect(last.delegateSet(app: Self.app, delegates: [2], isPresent: { _ in true }) == [.offer(id: 1, file, to: [2])])
    }

    @Test("Once the grace is over, what no delegate took goes to the extension; an early timer is armed again")
    func graceEndsWithTheExtension() {
        var state = Self.restarted()
        let file = Self.finished(7)
        _ = state.found([file])
        let early = state.reconnectGraceEnded(at: Self.at(1500), delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true })
        #expect(early == [.armGraceTimer(at: Self.graceEnd)])
        let ended = state.reconnectGraceEnded(at: Self.graceEnd, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true })
        #expect(ended == [.giveToExtension(file)])
        #expect(state.rows(of: Self.app).isEmpty, "the extension's from now on")
        let later = Self.finished(8)
        #expect(state.finished(later, delegates: [], isInstalled: true, isPresent: true, at: Self.at(2500)) == [.giveToExtension(later)])
    }

    @Test("A file gone before its owner had it is fetched again, never offered as delivered")
    func lostFileIsFetchedAgain() {
        var state = Self.restarted()
        let (gone, there) = (Self.finished(7), Self.finished(8))
        _ = state.found([gone, there])
        let actions = state.delegateSet(app: Self.app, delegates: [3], isPresent: { $0 != gone.file })
        #expect(actions == [.fetchAgain(gone), .offer(id: 1, there, to: [3])])
        #expect(state.finished(Self.finished(9), delegates: [3], isInstalled: true, isPresent: false, at: Self.at(10)) == [.fetchAgain(Self.finished(9))])
    }

    @Test("A file ends once the last delegate it was sent to returns, not before")
    func endsWithLastAcknowledgement() {
        var state = Self.restarted()
        let file = Self.finished(7)
        #expect(state.finished(file, delegates: [10, 11], isInstalled: true, isPresent: true, at: Self.at(0)) == [.offer(id: 1, file, to: [10, 11])])
        #expect(state.acknowledged(1, by: 10).isEmpty)
        #expect(state.offer(1)?.pending == [11])
        #expect(state.acknowledged(1, by: 11) == [.release(file, .delivered)])
        #expect(state.offer(1) == nil && state.rows(of: Self.app).isEmpty)
        #expect(state.acknowledged(1, by: 11).isEmpty, "a second acknowledgement changes nothing")
    }

    @Test("When every delegate leaves before returning, the file goes on: to another delegate, held, or to the extension")
    func orphanedOffersGoOn() {
        var state = Self.restarted()
        let file = Self.finished(7)
        _ = state.finished(file, delegates: [10], isInstalled: true, isPresent: true, at: Self.at(0))
        // Within the grace: held for the app's next delegate.
        let closed = state.connectionClosed(10, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true }, at: Self.at(100))
        #expect(closed == [.hold(file), .armGraceTimer(at: Self.graceEnd)])
        #expect(state.delegateSet(app: Self.app, delegates: [12], isPresent: { _ in true }) == [.offer(id: 2, file, to: [12])])
        // After the grace, with no delegate left: the extension.
        let after = state.connectionClosed(12, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true }, at: Self.at(3000))
        #expect(after == [.giveToExtension(file)])
    }

    @Test("A delegate that moved the file away and left before its acknowledgement arrived has it: delivered, never given again")
    func movedThenLeft() {
        var state = Self.restarted()
        let file = Self.finished(7)
        _ = state.finished(file, delegates: [10], isInstalled: true, isPresent: true, at: Self.at(0))
        let closed = state.connectionClosed(10, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in false },
                                            at: Self.at(3000))
        #expect(closed == [.release(file, .delivered)])
        #expect(state.rows(of: Self.app).isEmpty)
    }

    @Test("A delegate that returned, then left, leaves a delivered file to delete")
    func deliveredWhenOneReturned() {
        var state = Self.restarted()
        let file = Self.finished(7)
        _ = state.finished(file, delegates: [10, 11], isInstalled: true, isPresent: true, at: Self.at(0))
        #expect(state.acknowledged(1, by: 10).isEmpty)
        #expect(state.connectionClosed(11, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true }, at: Self.at(10))
            == [.release(file, .delivered)])
    }

    @Test("A file of an app that is not installed has no owner: held like any other until the grace ends, then deleted")
    func noOwner() {
        var state = Self.restarted()
        let (early, found) = (Self.finished(7, app: "com.example.gone"), Self.finished(8, app: "com.example.gone"))
        // Within the grace the service may not know its installed apps yet: nothing is deleted.
        #expect(state.finished(early, delegates: [], isInstalled: false, isPresent: true, at: Self.at(10)).first == .hold(early))
        _ = state.found([found])
        #expect(state.reconnectGraceEnded(at: Self.graceEnd, delegates: { _ in [] }, isInstalled: { _ in false }, isPresent: { _ in true })
            == [.release(early, .noOwner), .release(found, .noOwner)])
        let late = Self.finished(9, app: "com.example.gone")
        #expect(state.finished(late, delegates: [], isInstalled: false, isPresent: true, at: Self.at(2500)) == [.release(late, .noOwner)])
    }

    @Test("A file the extension ended without taking is kept for the app past the grace, never deleted, and offered to the next delegate")
    func extensionDidNotTake() {
        var state = Self.restarted()
        let (file, other) = (Self.finished(7), Self.finished(8))
        #expect(state.extensionDidNotTake(file, delegates: [], isInstalled: true, isPresent: true) == [.keepForApp(file)])
        _ = state.finished(other, delegates: [], isInstalled: true, isPresent: true, at: Self.at(10))
        #expect(state.rows(of: Self.app) == [7, 8], "listed to the app while kept")
        // The grace sends the ordinary held file on; the one the extension did not take stays the app's.
        let graceEnded = state.reconnectGraceEnded(at: Self.graceEnd, delegates: { _ in [] }, isInstalled: { _ in true }, isPresent: { _ in true })
        #expect(graceEnded == [.giveToExtension(other)])
        #expect(state.heldFiles(of: Self.app) == [file])
        #expect(state.delegateSet(app: Self.app, delegates: [4], isPresent: { _ in true }) == [.offer(id: 1, file, to: [4])])
        #expect(state.acknowledged(1, by: 4) == [.release(file, .delivered)])
    }

    @Test("An extension that moved the file away before it ended has it; an uninstalled app's file has no owner; a connected delegate gets it at once")
    func extensionDidNotTakeOutcomes() {
        var state = Self.restarted()
        let (moved, orphan, offered) = (Self.finished(7), Self.finished(8, app: "com.example.gone"), Self.finished(9))
        #expect(state.extensionDidNotTake(moved, delegates: [], isInstalled: true, isPresent: false) == [.release(moved, .delivered)])
        #expect(state.extensionDidNotTake(orphan, delegates: [], isInstalled: false, isPresent: true) == [.release(orphan, .noOwner)])
        #expect(state.extensionDidNotTake(offered, delegates: [3], isInstalled: true, isPresent: true) == [.offer(id: 1, offered, to: [3])])
    }
}
