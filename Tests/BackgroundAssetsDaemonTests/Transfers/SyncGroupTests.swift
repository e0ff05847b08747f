/*
Abstract:
Tests of the group that finished files wait in to share one sync: when it goes, and that nobody waits alone.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Finished files synced together", .timeLimit(.minutes(3)))
struct SyncGroupTests {
    /// A window no test waits out: a group that goes before it went for the reason the test names.
    static let longWindow: TimeInterval = 3_600

    /// The joins that returned, counted across threads.
    private final class Returns: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    /// A group with `count` transfers running, each of which may join it.
    private static func group(running count: Int, window: TimeInterval = longWindow) -> SyncGroup {
        let group = SyncGroup(window: window)
        for _ in 0..<count { group.transferBegan() }
        return group
    }

    /// Joins `group` on a thread of its own, and counts the join once it returns.
    private static func join(_ group: SyncGroup, counting returned: Returns) {
        Thread.detachNewThread {
            group.join()
            returned.add()
        }
    }

    @Test("A transfer running alone never waits for company")
    func aloneGoesAtOnce() {
        let group = Self.group(running: 1)
        // Returns only because nobody else runs: the window would keep it past the suite's limit.
        group.join()
        group.transferEnded()
        #expect(group.waitingCount == 0)
    }

    @Test("The group goes once every running transfer has joined it")
    func goesWhenEveryoneJoined() async throws {
        let group = Self.group(running: 3)
        let returned = Returns()
        Self.join(group, counting: returned)
        Self.join(group, counting: returned)
        try await poll(until: { group.waitingCount == 2 }, "two transfers to wait in the group")
        #expect(returned.value == 0, "the group went without the third transfer")
        Self.join(group, counting: returned)
        try await poll(until: { returned.value == 3 }, "all three to go")
        #expect(group.waitingCount == 0)
    }

    @Test("A transfer that ends without joining lets the others go")
    func goesWhenTheLastOneLeaves() async throws {
        let group = Self.group(running: 2)
        let returned = Returns()
        Self.join(group, counting: returned)
        try await poll(until: { group.waitingCount == 1 }, "one transfer to wait in the group")
        // The other fails, say: it never syncs a finished file.
        group.transferEnded()
        try await poll(until: { returned.value == 1 }, "the waiting transfer to go")
    }

    @Test("The first to join waits no longer than the window, whoever else still runs")
    func goesAfterTheWindow() async throws {
        let group = Self.group(running: 2, window: 0.01)
        let returned = Returns()
        Self.join(group, counting: returned)
        // The other transfer is still receiving its body and never joins.
        try await poll(until: { returned.value == 1 }, "the transfer to go after the window")
        #expect(group.waitingCount == 0)
    }

    @Test("After a group goes, the next one forms anew and waits for its own members")
    func groupsFollowEachOther() async throws {
        let group = Self.group(running: 2)
        let returned = Returns()
        Self.join(group, counting: returned)
        Self.join(group, counting: returned)
        try await poll(until: { returned.value == 2 }, "the first group to go")
        // Both transfers run again (a thread's next download); one joins and must wait for the other.
        Self.join(group, counting: returned)
        try await poll(until: { group.waitingCount == 1 }, "a new group with one member")
        #expect(returned.value == 2, "the second group went without its second member")
        Self.join(group, counting: returned)
        try await poll(until: { returned.value == 4 }, "the second group to go")
    }
}
