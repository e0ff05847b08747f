/*
Abstract:
Syncs the queue's write-ahead log on a thread of its own, so one sync makes every change committed before it durable.
*/

import Foundation
import Synchronization

/// Group commit for changes whose caller waits for the disk but need not hold up the next change.
///
/// A schedule is acknowledged only once it would survive a power cut. An insert made with
/// `syncs: false` commits, takes a ticket (the store's count of changed rows), and asks to be told
/// when its ticket is on disk; this syncer's thread then syncs the write-ahead log once for every
/// ticket committed before the sync began, so a burst of pipelined schedules shares a few syncs
/// instead of taking one each. The sync runs outside the database lock, so inserts continue
/// meanwhile: `fdatasync` on the log writes out whatever was appended before it began. Changes that
/// sync inside the lock themselves (``DownloadStore/withDatabase(waitsForDisk:_:)``) advance the
/// synced ticket too, so nobody waits for a sync that already happened.
final class WriteAheadLogSyncer: @unchecked Sendable {
    // `condition` guards the stored vars below; hence the unchecked Sendable.
    private let condition = NSCondition()
    private var waiting: [(ticket: Int, completion: @Sendable (_ isDurable: Bool) -> Void)] = []
    private var isThreadRunning = false
    private var isStopping = false
    private var syncs = 0

    /// The latest ticket handed out: a count of the changes committed up to then.
    private let committed = Atomic<Int>(0)
    /// The latest ticket known to be on disk.
    private let synced = Atomic<Int>(0)
    /// The write-ahead log's path.
    private let logPath: String
    /// The log, opened by the syncer's thread on its first sync; only that thread uses it.
    private var logDescriptor: Int32 = -1

    /// - Parameter logPath: The write-ahead log: the database's path followed by `-wal`.
    init(logPath: String) {
        self.logPath = logPath
    }

    /// A ticket committed and not yet on disk, if any: what a reply about it must wait for.
    var unsyncedTicket: Int? {
        let ticket = committed.load(ordering: .acquiring)
        return ticket > synced.load(ordering: .acquiring) ? ticket : nil
    }

    /// The syncs this syncer ran, for tests that check they are shared.
    var syncCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return syncs
    }

    /// Records that the changes up to `ticket` are committed and must reach the disk.
    func committed(through ticket: Int) {
        _ = committed.max(ticket, ordering: .acquiringAndReleasing)
    }

    /// Records that the changes up to `ticket` are on disk (the store synced them itself).
    func synced(through ticket: Int) {
        _ = synced.max(ticket, ordering: .acquiringAndReleasing)
    }

    /// Calls `completion` once the changes up to `ticket` are on disk, with `false` when the sync failed
    /// (or the store closed first). Returns at once; `completion` runs on the syncer's thread, or here
    /// when the ticket is already on disk.
    func whenDurable(through ticket: Int, _ completion: @escaping @Sendable (_ isDurable: Bool) -> Void) {
        if synced.load(ordering: .acquiring) >= ticket {
            completion(true)
            return
        }
        condition.lock()
        guard !isStopping else {
            condition.unlock()
            completion(false)
            return
        }
        waiting.append((ticket, completion))
        if !isThreadRunning {
            // Started on first use: most stores (and every test's) never defer a sync.
            isThreadRunning = true
            let thread = Thread { [self] in run() }
            thread.name = "queue sync"
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Fails what still waits and ends the thread; a later ``whenDurable(through:_:)`` fails at once.
    func stop() {
        condition.lock()
        isStopping = true
        let failed = waiting
        waiting = []
        condition.broadcast()
        condition.unlock()
        for entry in failed { entry.completion(false) }
    }

    /// Syncs the log through a descriptor of its own: `fdatasync` writes out a file's data whichever
    /// descriptor it is called on, so this covers what SQLite appended through its own before the call.
    private func syncLog() -> Bool {
        if logDescriptor < 0 { logDescriptor = open(logPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        return logDescriptor >= 0 && fdatasync(logDescriptor) == 0
    }

    private func run() {
        while true {
            condition.lock()
            while waiting.isEmpty, !isStopping { condition.wait() }
            if isStopping {
                isThreadRunning = false
                condition.unlock()
                if logDescriptor >= 0 { close(logDescriptor) }
                return
            }
            condition.unlock()

            // Everything committed before the sync begins is on disk when it returns.
            let target = committed.load(ordering: .acquiring)
            let isDurable = syncLog()
            if isDurable { synced(through: target) }

            condition.lock()
            syncs += 1
            let reached = synced.load(ordering: .acquiring)
            // A failed sync answers everyone waiting: no later sync would make their changes safer.
            let isAnswered = { (entry: (ticket: Int, completion: @Sendable (Bool) -> Void)) in
                !isDurable || entry.ticket <= reached
            }
            let done = waiting.filter(isAnswered)
            waiting.removeAll(where: isAnswered)
            condition.unlock()
            for entry in done { entry.completion(isDurable) }
        }
    }
}
