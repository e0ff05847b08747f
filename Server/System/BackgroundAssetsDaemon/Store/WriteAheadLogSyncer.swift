/*
Abstract:
Syncs the queue's write-ahead log on a thread of its own, so one sync makes every change committed before it durable.
*/

import Foundation
import Synchronization

/// Group commit for changes whose caller waits for the disk but need not hold up the next change.
///
/// A schedule is acknowledged only once it would survive a power cut. An insert made with
/// ``CommitDurability/answerWaits`` commits, takes a ticket (the store's count of changed rows), and asks to be told
/// when its ticket is on disk; this syncer's thread then syncs the write-ahead log once for every
/// ticket committed before the sync began, so a burst of pipelined schedules shares a few syncs
/// instead of taking one each. The sync runs outside the database lock, so inserts continue
/// meanwhile: `fdatasync` on the log writes out whatever was appended before it began. Changes that
/// sync inside the lock themselves (``DownloadStore/withDatabase(waitsForDisk:_:)``) advance the
/// synced ticket too, so nobody waits for a sync that already happened.
///
/// A change nobody waits for but that must not stay off the disk for long (a new foreground
/// download: its app is answered at once) asks for a sync within ``soonDelay`` instead
/// (``syncSoon(through:)``): one sync a delay covers every such change made meanwhile, and a sync
/// someone waits for takes them with it.
final class WriteAheadLogSyncer: @unchecked Sendable {
    // `condition` guards the stored vars below; hence the unchecked Sendable.
    private let condition = NSCondition()
    private var waiting: [(ticket: Int, completion: @Sendable (_ isDurable: Bool) -> Void)] = []
    private var isThreadRunning = false
    private var isStopping = false
    private var syncs = 0
    /// The latest ticket that must reach the disk soon, though nobody waits for it.
    private var soonTicket = 0
    /// When the oldest change of ``soonTicket`` not on disk yet must be synced by; `nil` when none waits.
    private var soonDeadline: ContinuousClock.Instant?

    /// How long a change of ``syncSoon(through:)`` may stay off the disk.
    let soonDelay: Duration

    /// The latest ticket handed out: a count of the changes committed up to then.
    private let committed = Atomic<Int>(0)
    /// The latest ticket known to be on disk.
    private let synced = Atomic<Int>(0)
    /// The write-ahead log's path.
    private let logPath: String
    /// The log, opened by the syncer's thread on its first sync; only that thread uses it.
    private var logDescriptor: Int32 = -1

    /// - Parameters:
    ///   - logPath: The write-ahead log: the database's path followed by `-wal`.
    ///   - soonDelay: How long a change of ``syncSoon(through:)`` may stay off the disk.
    init(logPath: String, soonDelay: Duration = .seconds(1)) {
        self.logPath = logPath
        self.soonDelay = soonDelay
    }

    /// A ticket committed and not yet on disk, if any: what a reply about it must wait for.
    var unsyncedTicket: Int? {
        let ticket = committed.load(ordering: .acquiring)
        return ticket > synced.load(ordering: .acquiring) ? ticket : nil
    }

    /// The latest ticket of ``syncSoon(through:)`` not on disk yet, if any, for tests.
    var unsyncedSoonTicket: Int? {
        condition.lock()
        defer { condition.unlock() }
        return soonTicket > synced.load(ordering: .acquiring) ? soonTicket : nil
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
        startThreadIfNeeded()
        condition.signal()
        condition.unlock()
    }

    /// Makes sure the changes up to `ticket` reach the disk within ``soonDelay``, with a sync shared
    /// with every change made meanwhile, without anyone waiting for it. Returns at once.
    func syncSoon(through ticket: Int) {
        guard synced.load(ordering: .acquiring) < ticket else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !isStopping else { return }
        soonTicket = max(soonTicket, ticket)
        if soonDeadline == nil { soonDeadline = .now + soonDelay }
        startThreadIfNeeded()
        condition.signal()
    }

    /// Starts the thread on first use: most stores (and every test's) never defer a sync. Call it
    /// holding `condition`.
    private func startThreadIfNeeded() {
        guard !isThreadRunning else { return }
        isThreadRunning = true
        Thread.start(named: "log-sync") { [self] in run() }
    }

    /// Fails what still waits and ends the thread; a later ``whenDurable(through:_:)`` fails at once.
    /// Changes of ``syncSoon(through:)`` not on disk yet are synced first, on the caller's thread:
    /// nobody waits for them, so nothing else would.
    func stop() {
        condition.lock()
        isStopping = true
        let failed = waiting
        waiting = []
        let owesSoonSync = soonTicket > synced.load(ordering: .acquiring)
        soonDeadline = nil
        condition.broadcast()
        condition.unlock()
        for entry in failed { entry.completion(false) }
        if owesSoonSync { _ = Self.syncLog(at: logPath) }
    }

    /// Syncs the log through a descriptor opened for it, for a sync outside the syncer's thread.
    private static func syncLog(at path: String) -> Bool {
        let descriptor = openLog(at: path)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fdatasync(descriptor) == 0
    }

    /// Syncs the log through a descriptor of its own: `fdatasync` writes out a file's data whichever
    /// descriptor it is called on, so this covers what SQLite appended through its own before the call.
    private func syncLog() -> Bool {
        if logDescriptor < 0 { logDescriptor = Self.openLog(at: logPath) }
        return logDescriptor >= 0 && fdatasync(logDescriptor) == 0
    }

    /// A descriptor of the log to sync through, never through a link planted at its name.
    private static func openLog(at path: String) -> Int32 {
        open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    }

    /// Waits, holding `condition`, until a sync is due: someone waits for one, or the oldest change
    /// of ``syncSoon(through:)`` reached its deadline. Returns `false` when the syncer stops instead.
    private func waitForDueSync() -> Bool {
        while !isStopping, waiting.isEmpty {
            guard let deadline = soonDeadline else {
                condition.wait()
                continue
            }
            if soonTicket <= synced.load(ordering: .acquiring) {
                // A change that synced itself covered them.
                soonDeadline = nil
                continue
            }
            let now = ContinuousClock.now
            if deadline <= now { return true }
            _ = condition.wait(until: Date(timeIntervalSinceNow: (deadline - now).seconds))
        }
        return !isStopping
    }

    private func run() {
        while true {
            condition.lock()
            guard waitForDueSync() else {
                isThreadRunning = false
                condition.unlock()
                if logDescriptor >= 0 { close(logDescriptor) }
                return
            }
            // This sync covers the changes that were to be synced soon, and any made while it runs
            // wait for a delay of their own.
            let soon = soonTicket
            soonDeadline = nil
            condition.unlock()

            // Everything committed before the sync begins is on disk when it returns.
            let target = max(committed.load(ordering: .acquiring), soon)
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
            // Changes nobody waits for are tried again a delay later.
            if !isDurable, soonTicket > reached, soonDeadline == nil { soonDeadline = .now + soonDelay }
            condition.unlock()
            for entry in done { entry.completion(isDurable) }
        }
    }
}
