/*
Abstract:
Tests for granting an app's exclusive control in arrival order across its processes.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Exclusive control")
struct ExclusiveControlArbiterTests {
    typealias Waiter = ExclusiveControlArbiter.Waiter
    static let app = "com.example.apple-samplecode.WWDC-Sessions"
    static let now = Date(timeIntervalSince1970: 1_000_000)

    @Test("Control goes to the first caller, then to waiters in arrival order")
    func grantsInArrivalOrder() {
        var arbiter = ExclusiveControlArbiter()
        #expect(arbiter.acquire(app: Self.app, Waiter(connection: 1, requestID: 1, deadline: nil), now: Self.now) == .granted)
        #expect(arbiter.acquire(app: Self.app, Waiter(connection: 2, requestID: 7, deadline: nil), now: Self.now) == .queued)
        #expect(arbiter.acquire(app: Self.app, Waiter(connection: 3, requestID: 9, deadline: nil), now: Self.now) == .queued)
        #expect(arbiter.release(app: Self.app, connection: 1) == Waiter(connection: 2, requestID: 7, deadline: nil))
        #expect(arbiter.holder(of: Self.app) == 2)
        #expect(arbiter.release(app: Self.app, connection: 2)?.connection == 3)
        #expect(arbiter.release(app: Self.app, connection: 3) == nil)
        #expect(arbiter.holder(of: Self.app) == nil)
    }

    @Test("Each app has its own control")
    func separatesApps() {
        var arbiter = ExclusiveControlArbiter()
        #expect(arbiter.acquire(app: "a", Waiter(connection: 1, requestID: 1, deadline: nil), now: Self.now) == .granted)
        #expect(arbiter.acquire(app: "b", Waiter(connection: 2, requestID: 1, deadline: nil), now: Self.now) == .granted)
    }

    @Test("Only the holder can release control")
    func onlyHolderReleases() {
        var arbiter = ExclusiveControlArbiter()
        _ = arbiter.acquire(app: Self.app, Waiter(connection: 1, requestID: 1, deadline: nil), now: Self.now)
        _ = arbiter.acquire(app: Self.app, Waiter(connection: 2, requestID: 1, deadline: nil), now: Self.now)
        #expect(arbiter.release(app: Self.app, connection: 2) == nil)
        #expect(arbiter.holder(of: Self.app) == 1)
    }

    @Test("A past deadline fails at once; a waiting deadline expires and leaves the line")
    func honoursDeadlines() {
        var arbiter = ExclusiveControlArbiter()
        let past = Waiter(connection: 9, requestID: 1, deadline: Self.now.addingTimeInterval(-1))
        #expect(arbiter.acquire(app: Self.app, past, now: Self.now) == .expired)
        _ = arbiter.acquire(app: Self.app, Waiter(connection: 1, requestID: 1, deadline: nil), now: Self.now)
        let soon = Waiter(connection: 2, requestID: 5, deadline: Self.now.addingTimeInterval(2))
        let later = Waiter(connection: 3, requestID: 6, deadline: Self.now.addingTimeInterval(60))
        #expect(arbiter.acquire(app: Self.app, soon, now: Self.now) == .queued)
        #expect(arbiter.acquire(app: Self.app, later, now: Self.now) == .queued)
        #expect(arbiter.earliestDeadline == soon.deadline)
        #expect(arbiter.expire(now: Self.now.addingTimeInterval(3)) == [soon])
        #expect(arbiter.release(app: Self.app, connection: 1) == later)
    }

    @Test("A holder that disconnects passes control on, and its waits are dropped")
    func releasesOnDisconnect() {
        var arbiter = ExclusiveControlArbiter()
        _ = arbiter.acquire(app: Self.app, Waiter(connection: 1, requestID: 1, deadline: nil), now: Self.now)
        _ = arbiter.acquire(app: "other", Waiter(connection: 5, requestID: 1, deadline: nil), now: Self.now)
        _ = arbiter.acquire(app: "other", Waiter(connection: 1, requestID: 2, deadline: nil), now: Self.now)
        _ = arbiter.acquire(app: Self.app, Waiter(connection: 2, requestID: 3, deadline: nil), now: Self.now)
        #expect(arbiter.disconnect(1) == [Waiter(connection: 2, requestID: 3, deadline: nil)])
        #expect(arbiter.holder(of: Self.app) == 2)
        #expect(arbiter.release(app: "other", connection: 5) == nil, "the disconnected waiter left the line")
    }

    @Test("While the extension has a finished file in hand, its requests go first and the others wait until it is done")
    func fileInTheExtensionsHandsGoesFirst() {
        var arbiter = ExclusiveControlArbiter()
        let (app, otherApp) = (Waiter(connection: 1, requestID: 1, deadline: nil), Waiter(connection: 3, requestID: 1, deadline: nil))
        let withFile = Waiter(connection: 2, requestID: 4, deadline: nil, hasFileInHand: true)
        #expect(arbiter.extensionHasFile(true, app: Self.app) == nil)
        #expect(arbiter.acquire(app: Self.app, app, now: Self.now) == .queued, "nobody holds control, but the file does")
        #expect(arbiter.holder(of: Self.app) == nil)
        #expect(arbiter.acquire(app: "other", otherApp, now: Self.now) == .granted, "other apps are not held back")
        #expect(arbiter.acquire(app: Self.app, withFile, now: Self.now) == .granted, "the extension goes ahead of the app")
        #expect(arbiter.release(app: Self.app, connection: 2) == nil, "the file is still in hand")
        #expect(arbiter.extensionHasFile(true, app: Self.app) == nil)
        #expect(arbiter.extensionHasFile(false, app: Self.app) == app)
        #expect(arbiter.holder(of: Self.app) == 1)
        #expect(arbiter.extensionHasFile(false, app: Self.app) == nil, "nothing changed")
    }

    @Test("A request made with a file in hand passes the waiters ahead of it when the holder lets go")
    func fileInHandPassesEarlierWaiters() {
        var arbiter = ExclusiveControlArbiter()
        _ = arbiter.acquire(app: Self.app, Waiter(connection: 1, requestID: 1, deadline: nil), now: Self.now)
        let early = Waiter(connection: 5, requestID: 2, deadline: nil)
        let withFile = Waiter(connection: 2, requestID: 3, deadline: nil, hasFileInHand: true)
        #expect(arbiter.acquire(app: Self.app, early, now: Self.now) == .queued)
        _ = arbiter.extensionHasFile(true, app: Self.app)
        #expect(arbiter.acquire(app: Self.app, withFile, now: Self.now) == .queued, "the holder keeps control")
        #expect(arbiter.release(app: Self.app, connection: 1) == withFile)
        #expect(arbiter.release(app: Self.app, connection: 2) == nil, "the earlier waiter waits for the file")
        #expect(arbiter.extensionHasFile(false, app: Self.app) == early)
    }

    @Test("A waiter held back by a file in hand still expires at its deadline, and one that left is never granted")
    func heldBackWaitersExpireAndLeave() {
        var arbiter = ExclusiveControlArbiter()
        _ = arbiter.extensionHasFile(true, app: Self.app)
        let soon = Waiter(connection: 1, requestID: 1, deadline: Self.now.addingTimeInterval(1))
        let gone = Waiter(connection: 2, requestID: 1, deadline: nil)
        #expect(arbiter.acquire(app: Self.app, soon, now: Self.now) == .queued)
        #expect(arbiter.acquire(app: Self.app, gone, now: Self.now) == .queued)
        #expect(arbiter.expire(now: Self.now.addingTimeInterval(2)) == [soon])
        #expect(arbiter.disconnect(2).isEmpty)
        #expect(arbiter.extensionHasFile(false, app: Self.app) == nil)
        #expect(arbiter.holder(of: Self.app) == nil)
    }
}
