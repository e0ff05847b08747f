/*
Abstract:
The download queue: runs the stored downloads through the transfer engine, in order, within the policy.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import SystemLogging

/// Runs downloads from the store: bounded concurrency for background transfers, foreground ones
/// at once, a shared background bandwidth, retries by the ``RetryPolicy``, and hand-over of
/// finished files into the app group container.
///
/// Transfers block, so each runs on its own thread; what they report comes back to this actor,
/// which is the only place that changes a download's state.
public actor DownloadQueue: OwnThreadActor {
    /// The queue's own thread: it calls the store, which blocks on SQLite and the disk.
    public nonisolated let thread = ActorThread(name: "queue")

    struct RunningTransfer {
        /// The download as it was when the transfer started.
        let row: DownloadRow
        let control: TransferControl
        /// The slot it took (``TransferSlots``); a promotion moves it to the foreground.
        var slot: TransferSlots.Slot
        /// Whether every byte of its body arrived: it only makes them durable now.
        var hasWholeBody = false
        /// Whether it gave its slot to the downloads waiting while it makes its file durable
        /// (``releaseSlotsOfWholeBodies()``).
        var gaveUpSlot = false
        var isForeground: Bool { slot == .foreground }
        /// The slot it counts against: none once it gave it up.
        var heldSlot: TransferSlots.Slot? { gaveUpSlot ? nil : slot }
    }

    let store: DownloadStore
    /// The owner of the queue's timers, shared with the service so one shutdown stops them all.
    let activities: ServiceActivities
    /// The real time the queue stamps its records and sets its timers by.
    var wallClock: any ServiceClock { activities.wallClock }
    let staging: StagingArea
    let configuration: ServiceConfiguration
    let policy: RetryPolicy
    /// The CAs https downloads trust: the system's and the device's. The manifests' fetches use it
    /// too, so one context (and its TLS sessions) serves every https request of the service.
    let trust: TrustedCertificates
    /// Kept-alive connections, shared by every transfer of the queue.
    let connections: ConnectionPool
    let observer: @Sendable (QueueEvent) -> Void
    /// Downloads finished, or finishing, whose `.finished` event the service has not routed yet.
    public nonisolated let finishesOnTheirWay = FinishesOnTheirWay()
    /// Ends of transfers their threads reported, waiting to be recorded together.
    nonisolated let transferEnds = TransferEnds()
    let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")

    var running: [Int64: RunningTransfer] = [:]
    var credentials: [Int64: BasicCredential] = [:]
    var awaitingChallenge: [Int64: ChallengeDescriptor] = [:]
    /// When this service started counting a download's bounded wait (its first failure here, or
    /// its promotion): the wait never counts time before it.
    var waitingSince: [Int64: Date] = [:]
    /// When to look again whether each of those downloads ran out of its wait, and the timer that does.
    var waitChecks: [Int64: Date] = [:]
    var waitCheck: ServiceActivities.Activity?
    /// Each download's attempts since its last progress, for the message of a bounded wait.
    var failureRuns: [Int64: FailureRun] = [:]
    /// The origins that refused a connection, and the downloads parked behind each one's probe.
    var connectivity = ConnectivityWaits()
    var random = SystemRandomNumberGenerator()
    /// The machine's current boot, which decides whether unsynced staging bytes can be trusted.
    let bootIdentity = BootIdentity.current()
    /// Apps in their essential phase: only their essential downloads may start.
    var heldApps: Set<String> = []
    /// The hosts each not-yet-launched app's downloads may be redirected to.
    var allowedHosts: [String: DomainAllowList] = [:]
    /// The timer that pumps when the next download is due, and the time it wakes at, so a pump that
    /// finds it still to come leaves it.
    var wakeUp: (activity: ServiceActivities.Activity, date: Date)?
    /// Whether a pump asked for with ``pumpAfterThisJob()`` has not run yet.
    var isPumpPending = false
    /// Ends the store could not record yet, by row id, and the timer that tries again.
    var unrecordedEnds: [Int64: UnrecordedEnd] = [:]
    var recordingRetry: ServiceActivities.Activity?
    /// Whether downloads wait for file descriptors (``mayStartTransfer(besides:)``), and the look again that is due.
    var isWaitingForDescriptors = false
    var descriptorWait: ServiceActivities.Activity?
    /// What callers waiting for a transfer's thread to stop (to keep its partial file) wait on, by row id.
    var partialFileKeepers: [Int64: TransferStopSignal] = [:]
    /// The pause of every transfer after repeated crashes (``CrashBrake``); behind a lock so the
    /// service can tell every client without waiting for the queue.
    nonisolated let crashPause = Mutex<CrashBrake.Pause?>(nil)
    /// Gives a download's transfers an observer of their bytes, for downloads digested as they arrive.
    private(set) var bodyObserverMaker: (@Sendable (DownloadRow) -> (any TransferBodyObserver)?)?

    /// Creates a queue over a store.
    /// - Parameters:
    ///   - store: The durable queue.
    ///   - paths: The device root, for staging files and app group containers.
    ///   - configuration: The policy knobs.
    ///   - activities: The owner of the queue's timers, and the real time they and its records run on.
    ///   - observer: Receives every event, on the queue's executor; it must not block.
    public init(
        store: DownloadStore, paths: DevicePaths, configuration: ServiceConfiguration,
        activities: ServiceActivities, observer: @escaping @Sendable (QueueEvent) -> Void
    ) {
        self.store = store
        self.activities = activities
        self.staging = StagingArea(paths: paths)
        self.configuration = configuration
        self.policy = RetryPolicy(configuration: configuration)
        self.trust = TrustedCertificates(directory: paths.trustDirectory)
        self.connections = ConnectionPool(
            maximumIdlePerOrigin: configuration.maxConcurrentDownloads + configuration.maxConcurrentSmallDownloads)
        self.observer = observer
    }

    /// Has every transfer started from now on show its bytes to the observer `maker` gives for its
    /// download, if it gives one (``TransferBodyObserver``).
    func observeBodies(with maker: @escaping @Sendable (DownloadRow) -> (any TransferBodyObserver)?) {
        bodyObserverMaker = maker
    }

    /// Creates the staging folder, puts downloads interrupted by a crash back in line, then starts
    /// what is due. Call it before ``enqueue(_:)``.
    /// - Throws: A store error.
    public func start() throws {
        // Once here rather than before every launch: pump runs after every change to the queue.
        try FileManager.default.createDirectory(at: staging.paths.stagingDirectory, withIntermediateDirectories: true)
        try finishHandedOverDownloads()
        if let crash = CrashReport.take(from: staging.paths) {
            try quarantine(after: crash)
            applyBrake(after: crash)
        }
        // Which origin was unreachable is not kept across a restart: every parked download is due.
        try store.unpark(at: wallClock.now)
        let requeued = try store.requeueInterruptedDownloads(at: wallClock.now)
        if requeued > 0 { logger.info("Resuming \(requeued) download(s) interrupted when the service last stopped.") }
        pump()
    }

    /// Stops every transfer (their bytes are synced and kept) and the timer.
    public func stop() {
        wakeUp?.activity.cancel()
        recordingRetry?.cancel()
        descriptorWait?.cancel()
        waitCheck?.cancel()
        for transfer in running.values { transfer.control.cancel() }
    }

    /// Adds downloads, all or none, and starts them when their turn comes.
    /// - Parameter durability: When they reach the disk (see ``DownloadStore/insert(_:at:durability:)``).
    /// - Returns: The stored rows.
    /// - Throws: ``DaemonError/downloadAlreadyScheduled(bundleIdentifier:identifier:)`` or a store error.
    public func enqueue(_ downloads: [NewDownload], durability: CommitDurability = .synced) throws -> [DownloadRow] {
        let rows = try store.insert(downloads.map(parkedIfUnreachable), at: wallClock.now, durability: durability)
        noteParked(rows)
        pumpAfterThisJob()
        return rows
    }

    /// Adds downloads in one transaction, each on its own: one the app has scheduled already is
    /// refused alone, the others are added. Then starts them when their turn comes, with one pump.
    /// - Parameter durability: When they reach the disk (see ``DownloadStore/insert(_:at:durability:)``).
    /// - Returns: Each download's row, or why it was refused, in order.
    /// - Throws: A store error; nothing is added.
    public func enqueueEach(
        _ downloads: [NewDownload], durability: CommitDurability = .synced
    ) throws -> [Result<DownloadRow, DaemonError>] {
        let outcomes = try store.insertEach(downloads.map(parkedIfUnreachable), at: wallClock.now, durability: durability)
        noteParked(outcomes.compactMap { try? $0.get() })
        pumpAfterThisJob()
        return outcomes
    }

    /// The download, parked behind its origin's probe when that origin is known to be unreachable.
    ///
    /// Inserted parked, a download costs one commit, where inserting it due and parking it on the
    /// next pump took two and a walk of the run order, for each of thousands scheduled while the host is down.
    private func parkedIfUnreachable(_ download: NewDownload) -> NewDownload {
        var download = download
        download.parkedBecause = reasonToPark(download)
        return download
    }

    /// Records the rows inserted parked as parked behind their origin's probe.
    private func noteParked(_ rows: [DownloadRow]) {
        for row in rows where row.lastError != nil && row.nextAttemptAt >= DownloadStore.parkedUntilReachable {
            if let origin = ConnectivityWaits.origin(of: row.descriptor.url) {
                _ = connectivity.park(id: row.id, origin: origin)
            }
        }
    }

    /// Moves a download to the foreground: unlimited bandwidth, and started at once if it waits.
    ///
    /// A running background transfer is paused and continues in the foreground from the same
    /// byte, on the same connection: the delegate sees `downloadDidPause` then `downloadDidBegin`.
    /// - Returns: The download as stored.
    /// - Throws: ``DaemonError/downloadNotFound(key:)`` or a store error.
    @discardableResult
    public func promote(id: Int64) throws -> DownloadRow {
        let now = wallClock.now
        // A power cut may take it back; the app promotes again when it is next opened.
        let row = try store.update(id: id, at: now, waitsForDisk: false) { row in
            row.isForeground = true
            if row.state == .waiting { row.nextAttemptAt = now }
        }
        // A person starts waiting now: the foreground wait counts from here.
        startWaitClock(of: row, at: now, restart: true)
        if var transfer = running[id], !transfer.isForeground {
            observer(.paused(row))
            transfer.slot = .foreground
            running[id] = transfer
            rebalanceBandwidth()
            observer(.began(row))
        } else {
            // Answered before it starts, as a schedule is.
            pumpAfterThisJob()
        }
        return row
    }

    /// Removes a download, stopping its transfer and deleting its staging file.
    /// - Throws: ``DaemonError/downloadNotFound(key:)`` when no such download is queued.
    public func cancel(id: Int64) throws {
        guard try store.delete(id: id) else { throw DaemonError.downloadNotFound(key: "row \(id)") }
        running.removeValue(forKey: id)?.control.cancel()
        credentials[id] = nil
        forgetFailures(of: id)
        awaitingChallenge[id] = nil
        staging.discard(rowID: id)
        rebalanceBandwidth()
        pump()
    }

    /// Holds back an app's non-essential downloads until ``release(app:)``: its essential phase.
    public func hold(app: String) {
        heldApps.insert(app)
    }

    /// Limits where an app's downloads may be redirected (its allow list before its first launch), or lifts the limit.
    public func restrictRedirects(of app: String, to allowList: DomainAllowList?) {
        allowedHosts[app] = allowList
    }

    /// Lets an app's non-essential downloads start: its essential phase ended.
    public func release(app: String) {
        guard heldApps.remove(app) != nil else { return }
        pump()
    }

    /// Runs store work that changes the queue (removing an uninstalled app's rows) on the queue's
    /// thread, in order with the queue's own writes. The service's reads go to
    /// ``DownloadStoreReader`` instead, which does not wait for them.
    /// - Parameter body: The work; it runs alone on the queue.
    /// - Returns: What `body` returns.
    public func withStore<Result: Sendable>(_ body: @Sendable (DownloadStore) throws -> Result) throws -> Result {
        // The work may have removed the download probing an unreachable origin.
        defer { replaceRemovedProbes() }
        return try body(store)
    }

    /// Whether anything is transferring or waiting: the service stays up while there is.

    public func hasWork() throws -> Bool {
        try !running.isEmpty || !unrecordedEnds.isEmpty || store.hasUnfinishedDownloads()
    }

    /// Starts every due download that fits, then sets the timer for the next one due.
    func pump() {
        if isPausedAfterCrashes() { return }
        // One reading of the clock for what is due and for the timer: read twice, a clock moved in
        // between (the device clock the debug tool advances, a test's) left a download that came
        // due then neither started nor waited for, and the timer that would have started it cancelled.
        let now = wallClock.now
        do {
            releaseSlotsOfWholeBodies()
            var slots = TransferSlots(configuration: configuration, running: running.values.compactMap(\.heldSlot))
            var due: [DownloadStore.DueDownload]
            // Parking takes downloads out of the due ones: look again until none was parked, so a
            // due download behind them is not left without a wake-up.
            repeat {
                due = try store.nextDownloadsToRun(limit: slots.backgroundRoom + 16, at: now, holding: heldApps)
            } while parkBehindUnreachableOrigins(due)
            var starts: [TransferStart] = []
            let opening = transfersOpeningDescriptors
            for download in due where running[download.id] == nil && awaitingChallenge[download.id] == nil {
                if let slot = slots.take(isForeground: download.isForeground, declaredSize: download.declaredSize) {
                    guard mayStartTransfer(besides: opening + starts.count) else { break }
                    starts.append(TransferStart(id: download.id, slot: slot))
                }
            }
            launch(starts)
            rebalanceBandwidth()
            try scheduleWakeUp(now: now)
        } catch {
            logger.error("The queue could not start downloads: \(error). It will try again on the next change.")
        }
    }

    /// Pumps once the caller's job on the queue has ended, once for every call made before it runs.
    ///
    /// The caller's answer does not wait for the pump: a schedule is answered while the queue starts
    /// it, and the ends and schedules that arrive together (transfers of small files end by the
    /// hundred a second) share one look at the store instead of one each.
    func pumpAfterThisJob() {
        guard !isPumpPending else { return }
        isPumpPending = true
        activities.run("queue pump") { [weak self] in await self?.runPendingPump() }
    }

    private func runPendingPump() {
        isPumpPending = false
        pump()
    }

    /// Splits the background bandwidth equally among the background transfers in regular slots
    /// still receiving their bodies.
    ///
    /// A transfer in a small download's slot is not paced: its file is at most 256 KiB, which a
    /// share's burst of a tenth of a second let through whole anyway when the share was split four
    /// ways, and split among twenty the burst would shrink below the file and hold each one back
    /// for a tenth of a second or more (``TransferSlots``).
    func rebalanceBandwidth() {
        let isPaced = { (transfer: RunningTransfer) in transfer.slot == .regular && !transfer.hasWholeBody }
        let paced = running.values.count(where: isPaced)
        let limit = configuration.backgroundBandwidthLimit
        let share: Int64? = limit > 0 && paced > 0 ? max(1, limit / Int64(paced)) : nil
        for transfer in running.values {
            transfer.control.bytesPerSecond = isPaced(transfer) ? share : nil
        }
    }

    private func scheduleWakeUp(now: Date) throws {
        // A download already due but not running waits for a free slot, and every transfer that
        // ends pumps again, so only a future due time needs a timer.
        guard let next = try store.earliestNextAttempt(holding: heldApps), next > now else {
            wakeUp?.activity.cancel()
            wakeUp = nil
            return
        }
        // Downloads waiting for an answer to a challenge are due in the distant future; never
        // sleep longer than an hour, which also bounds the effect of a clock change.
        scheduleWakeUp(at: min(next, now.addingTimeInterval(3600)), "queue wake-up", now: now)
    }

    /// Pumps again at `date`, in place of the wake-up set before, unless that one wakes at `date` or
    /// earlier and is still to come (an earlier one pumps when it wakes, and sets the next).
    ///
    /// Every pump asks for a wake-up (after each of thousands of schedules): replacing the timer each
    /// time made a task per pump. The timer waits for the date itself (``ServiceActivities/at(_:_:_:)``):
    /// a delay counted from a clock read a moment later was moved past the due time by a device clock
    /// advanced in between (the debug tool's, a test's), while the timer it replaced was gone.
    /// - Parameter now: The time the caller read, when it decided on `date` from it.
    func scheduleWakeUp(at date: Date, _ name: String, now: Date? = nil) {
        if let current = wakeUp?.date, current <= date, current > now ?? wallClock.now { return }
        wakeUp?.activity.cancel()
        let activity = activities.at(date.addingTimeInterval(0.001), name) { [weak self] in
            await self?.pump()
        }
        wakeUp = (activity, date)
    }
}
