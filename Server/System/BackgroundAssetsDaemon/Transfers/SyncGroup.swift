/*
Abstract:
Gathers the syncs of files that finish within a few milliseconds of each other, so they share one commit of the file system's journal.
*/

import Foundation

/// Lets transfers that finish at about the same time sync their files together.
///
/// Every finished file is synced (`fdatasync`) before it is handed over. On ext4 each sync forces a
/// commit of the journal, with a flush of the disk's cache, and the commit covers every file whose
/// sync is waiting for it: a file whose sync comes a moment after the commit has begun waits for
/// the next one. Transfers of small files end a few hundred microseconds apart, so each commit
/// covered about two files (466 commits in a round of 1,000 small downloads). A transfer that
/// finishes its body now starts its file's write-back, then waits in the group until every running
/// transfer has joined it or ``window`` has passed since the first one did; they then sync at once,
/// and the commits drop to about two fifths.
///
/// Invariant: nothing is handed over before its own `fdatasync` returned; the group only decides
/// when that call is made, at most ``window`` later than without it. A transfer running alone
/// (as a single foreground download usually is) never waits.
final class SyncGroup: @unchecked Sendable {
    /// The group the queue's downloads sync in (``TransferRequest/syncGroup``).
    static let shared = SyncGroup()

    /// The longest a finished file waits for others before its sync: enough for a few more small
    /// transfers to finish, little beside the sync's own wait for the disk.
    static let defaultWindow: TimeInterval = 0.003

    /// The longest the first file of a group waits for others.
    let window: TimeInterval

    // `condition` guards the vars below; hence the unchecked Sendable.
    private let condition = NSCondition()
    /// Transfers running now: those that may still join the group.
    private var running = 0
    /// Transfers waiting in the group.
    private var waiting = 0
    /// Counts the groups that have gone, so a waiter can tell its own has.
    private var departures = 0
    /// When the forming group goes, whoever else is still running.
    private var deadline = Date.distantPast

    /// - Parameter window: The longest the first file of a group waits for others.
    init(window: TimeInterval = SyncGroup.defaultWindow) {
        self.window = window
    }

    /// A transfer began on a thread that may join the group.
    func transferBegan() {
        condition.withLock { running += 1 }
    }

    /// A transfer ended; the group goes if everyone still running is already in it.
    func transferEnded() {
        condition.withLock {
            running -= 1
            if waiting > 0, waiting >= running { depart() }
        }
    }

    /// Waits until the group goes: every running transfer has joined, or ``window`` passed since
    /// the first one joined. Returns at once when no other transfer is running.
    func join() {
        condition.lock()
        defer { condition.unlock() }
        let group = departures
        waiting += 1
        if waiting == 1 { deadline = Date(timeIntervalSinceNow: window) }
        while departures == group {
            if waiting >= running || Date() >= deadline {
                depart()
                return
            }
            _ = condition.wait(until: deadline)
        }
    }

    private func depart() {
        departures &+= 1
        waiting = 0
        condition.broadcast()
    }

    /// The transfers waiting in the group now, for tests.
    var waitingCount: Int {
        condition.withLock { waiting }
    }
}
