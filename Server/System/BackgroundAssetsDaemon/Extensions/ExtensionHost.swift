/*
Abstract:
The extension host: launches an app's extension, sends it one entry-point call at a time, and enforces its limits.
*/

import BackgroundAssetsIPC
import Foundation
import SystemLogging

/// Runs app extensions: launches each from its installed bundle, hands it its calls one at a time,
/// watches its memory and each call's deadline, charges its runtime to the app's daily budget, and
/// ends it when it is idle, over a limit, or gone.
///
/// The behaviour of the extension lifecycle, as ``ExtensionRuns`` is its state and
/// ``ExtensionRuntimePolicy`` its rules. The service owns the host and calls it on its own executor;
/// what happens later (a deadline passing, a process exiting, memory over the limit) comes back as an
/// ``Event`` the service routes to the host again, and what a call's end means for installs and
/// downloads (schedule what it returned, release a file) stays with the service.
final class ExtensionHost {
    /// What happened while nobody was calling the host; the service hands each back to it.
    enum Event: Sendable {
        /// The extension checked in: its first call can be sent.
        case checkedIn(app: String)
        /// A call ran past its limit.
        case callOverran(app: String, callID: UInt64, limit: CallLimit)
        /// The extension must be killed: over its memory limit, or holding exclusive control too long.
        case overLimit(app: String, pid: Int32, reason: String)
        /// The extension has been idle for ``extensionIdleGrace``.
        case idle(app: String)
        /// `extensionWillTerminate()` returned a while ago and the process is still there.
        case forcedExitDue(app: String, pid: Int32)
        /// The process ended.
        case exited(app: String, ExtensionProcess.Exit)
        /// Runtime charges have waited ``UnsavedRuntime/saveDelay``: write them to the app's record.
        case runtimeSaveDue(app: String)
    }

    /// How long one call may run, and whether what cuts it is the daily budget.
    struct CallLimit: Sendable, Equatable {
        var seconds: Double
        var isBudget: Bool
    }

    /// How a run ended, for the service to settle: the calls it owed, and calls waiting for a fresh launch.
    struct Ending {
        var owed: [ExtensionCallRecord]
        var deferred: [ExtensionCallRecord]
        var reason: String
        /// The trace's account of the end, written once its runtime is in the app's record.
        var traceEntry: TraceEntry
    }

    /// How long an idle extension is kept before `extensionWillTerminate()`: long enough for a
    /// request it sends just after returning (exclusive control from a `Task`) to arrive.
    static let extensionIdleGrace: Duration = .milliseconds(250)
    /// The limit of `extensionWillTerminate()` itself, and the wait for the process to exit after it.
    static let terminationGrace: Double = 2
    /// How often the extension's resident memory is sampled.
    static let memorySampleInterval: Duration = .milliseconds(50)

    /// Each app's running extension, the calls queued for it, and what the host remembers between launches.
    var runs = ExtensionRuns()
    /// Runtime charged to the budget but not yet written to the app's record.
    var unsavedRuntime = UnsavedRuntime()
    /// The runtime limits.
    let policy: ExtensionRuntimePolicy

    private let paths: DevicePaths
    private let memoryLimit: Int64
    private let activities: ServiceActivities
    private let trace: ServiceTrace
    private let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")
    private let events: @Sendable (Event) async -> Void
    private var nextCallID: UInt64 = 1

    /// Creates the host.
    /// - Parameters:
    ///   - paths: The device root, passed to each extension.
    ///   - configuration: The runtime and memory limits.
    ///   - activities: The owner of the host's timers and watchers, and the clock they run on.
    ///   - trace: Where launches, calls and endings are recorded.
    ///   - events: Receives what happens later; the service hands each event back to the host.
    init(
        paths: DevicePaths, configuration: ServiceConfiguration, activities: ServiceActivities, trace: ServiceTrace,
        events: @escaping @Sendable (Event) async -> Void
    ) {
        self.paths = paths
        memoryLimit = configuration.extensionMemoryLimit
        policy = ExtensionRuntimePolicy(
            entryPointLimit: configuration.extensionRuntimeLimit, dailyBudget: configuration.extensionDailyBudget)
        self.activities = activities
        self.trace = trace
        self.events = events
    }

    private var now: Date { activities.clock.now }

    // MARK: - Launching

    /// Starts an app's extension from its installed bundle, and its memory watch.
    /// - Throws: The error that kept the executable from starting.
    func launch(_ installed: InstalledApp) throws {
        let app = installed.bundleIdentifier
        guard !activities.isClosed else { throw ServiceStopping(launch: "the extension of \(app)") }
        guard let executable = installed.extensionExecutable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(app) was installed without a downloader extension"])
        }
        // The extension runs from its installed bundle, linked again to the latest build first.
        if let built = installed.builtExtensionExecutable {
            try InstalledExecutable.refresh(executable, from: built)
        }
        let environment = LaunchEnvironment.of(
            app: app, role: .extension, deviceRoot: paths, manifestURL: installed.bundle.app.manifestURL)
        let events = events
        let process = try ExtensionProcess.launch(executable: executable, environment: environment) {
            [activities] exit in
            activities.run("exit of \(app)'s extension") { await events(.exited(app: app, exit)) }
        }
        var run = ExtensionRun(process: process, launchedAt: now)
        let limit = memoryLimit
        let pid = process.processIdentifier
        let clock = activities.clock
        run.memoryWatch = activities.run("memory watch of \(app)'s extension") {
            while !Task.isCancelled {
                guard let resident = process.residentBytes else { return }
                if resident > limit {
                    let reason = "memory limit: its resident memory reached \(resident >> 20) MiB, over extensionMemoryLimit \(limit >> 20) MiB"
                    await events(.overLimit(app: app, pid: pid, reason: reason))
                    return
                }
                try? await clock.sleep(for: Self.memorySampleInterval)
            }
        }
        runs[app] = run
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: "extensionLaunched", app: app, detail: "pid \(pid)"))
    }

    /// The extension the host launched introduced itself on a connection: calls can flow.
    /// - Returns: Whether it is the process the host launched for the app, not yet checked in.
    func checkIn(app: String, connection: ClientConnection) -> Bool {
        guard let running = runs[app], running.process.processIdentifier == connection.peer.processIdentifier,
            running.connection == nil
        else { return false }
        runs[app]?.connection = connection
        let coldStart = now.timeIntervalSince(running.launchedAt)
        trace.append(.init(from: "extension", to: "backgroundassetsd", event: "extensionCheckIn", app: app,
                           detail: "ready \(coldStart.wholeMilliseconds) ms after launch"))
        // After the check-in's answer is written: the first call follows it.
        let events = events
        activities.run("first call to \(app)'s extension") { await events(.checkedIn(app: app)) }
        return true
    }

    // MARK: - Calls

    /// Sends the next queued call, or lets an idle extension go.
    func sendNextCall(of app: String) {
        // The run is looked at in a scope of its own: a copy still held when the call is taken would
        // make the queue copy every call waiting behind it.
        let connection: ClientConnection
        do {
            guard let run = runs[app], let open = run.connection, run.running == nil, run.ending == nil else { return }
            guard !run.pending.isEmpty else {
                if !run.isTerminating { scheduleTermination(of: app) }
                return
            }
            run.idleTimer?.cancel()
            connection = open
        }
        guard let record = runs.takeNextCall(of: app) else { return }
        let id = nextCallID
        nextCallID += 1
        let limit = callLimit(for: app, record: record)
        let events = events
        let deadline = activities.after(.seconds(fractional: limit.seconds), "deadline of \(app)'s \(record.call.entryPoint)") {
            await events(.callOverran(app: app, callID: id, limit: limit))
        }
        runs[app]?.running = (id, record, now)
        runs[app]?.deadline = deadline
        if case .contentRequest = record.purpose { runs.contentRequestStarted(app) }
        // Traced before it is sent, so the trace never shows the extension's answer before the call.
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: record.call.entryPoint, app: app,
                           download: record.call.downloadIdentifier, detail: record.call.traceDetail))
        connection.send(.event(.extensionCall(callID: id, call: record.call)))
    }

    /// The limit of the next call: the per-call limit, cut to what is left of today's budget.
    private func callLimit(for app: String, record: ExtensionCallRecord) -> CallLimit {
        if case .willTerminate = record.call { return CallLimit(seconds: Self.terminationGrace, isBudget: false) }
        let left = max(0, policy.dailyBudget - (runs.runtimeUsedToday(app) ?? 0))
        return left < policy.entryPointLimit
            ? CallLimit(seconds: left, isBudget: true) : CallLimit(seconds: policy.entryPointLimit, isBudget: false)
    }

    /// An entry point returned on a connection: its runtime is charged and its record handed back.
    /// - Returns: The app and the call's record, or `nil` when no such call runs there (it timed out).
    ///   After `extensionWillTerminate()` the run is finished; after any other call the service
    ///   acts on the result, then sends the next call.
    func callReturned(callID: UInt64, connection: UInt64, deviceNow: Date) -> (app: String, record: ExtensionCallRecord)? {
        guard let (app, run) = runs.run(onConnection: connection), let running = run.running, running.id == callID else {
            return nil
        }
        run.deadline?.cancel()
        runs[app]?.running = nil
        runs[app]?.deadline = nil
        let elapsed = now.timeIntervalSince(running.sentAt)
        trace.append(.init(from: "extension", to: "backgroundassetsd", event: "return", app: app,
                           download: running.record.call.downloadIdentifier,
                           detail: "\(running.record.call.entryPoint) in \(elapsed.wholeMilliseconds) ms"))
        charge(elapsed, to: app, deviceNow: deviceNow)
        if case .willTerminate = running.record.call {
            runs[app]?.ending = .finished
            scheduleForcedExit(of: app, pid: run.process.processIdentifier)
        }
        return (app, running.record)
    }

    // MARK: - Ending

    /// Asks an idle extension to terminate, after a short grace.
    func scheduleTermination(of app: String) {
        runs[app]?.idleTimer?.cancel()
        let events = events
        runs[app]?.idleTimer = activities.after(Self.extensionIdleGrace, "idle grace of \(app)'s extension") {
            await events(.idle(app: app))
        }
    }

    /// Sends `extensionWillTerminate()` to an extension that is still idle, unless it holds (or waits
    /// for) exclusive control: the async exclusive-control handler keeps it alive, but no longer than
    /// an entry point may run, since holding the lock is work like any other.
    func terminateIfIdle(_ app: String, holdsExclusiveControl: Bool) {
        guard isIdle(app), let run = runs[app] else { return }
        if holdsExclusiveControl {
            let limit = policy.entryPointLimit
            let pid = run.process.processIdentifier
            let events = events
            runs[app]?.idleTimer = activities.after(.seconds(fractional: limit), "exclusive-control limit of \(app)'s extension") {
                let reason = "runtime limit: it held exclusive control for more than the \(limit.formatted()) s extensionRuntimeLimit after its last entry point returned"
                await events(.overLimit(app: app, pid: pid, reason: reason))
            }
            return
        }
        runs[app]?.isTerminating = true
        runs[app]?.pending = ExtensionCallQueue([ExtensionCallRecord(call: .willTerminate, purpose: .notice)])
        sendNextCall(of: app)
    }

    /// Whether an app's extension runs, checked in, with no call running or queued, and is not ending.
    func isIdle(_ app: String) -> Bool {
        guard let run = runs[app] else { return false }
        return !run.hasWork && !run.isTerminating && run.ending == nil && run.connection != nil
    }

    /// An extension's exclusive control ended: it may now be idle.
    func releasedExclusiveControl(app: String, connection: UInt64) {
        guard let run = runs[app], run.connection?.id == connection, !run.hasWork else { return }
        scheduleTermination(of: app)
    }

    /// Kills the process if it does not exit on its own after `extensionWillTerminate()`.
    private func scheduleForcedExit(of app: String, pid: Int32) {
        let events = events
        activities.after(.seconds(fractional: Self.terminationGrace), "forced exit of \(app)'s extension") {
            await events(.forcedExitDue(app: app, pid: pid))
        }
    }

    /// Kills a process that outstayed `extensionWillTerminate()`.
    func forceExit(of app: String, pid: Int32) {
        guard let run = runs[app], run.process.processIdentifier == pid else { return }
        run.process.kill()
    }

    /// A call ran past its limit: the extension is killed, as the system does.
    func callOverran(of app: String, callID: UInt64, limit: CallLimit) {
        guard let run = runs[app], let running = run.running, running.id == callID else { return }
        let entryPoint = running.record.call.entryPoint
        let reason = limit.isBudget
            ? "daily budget: \(entryPoint) ran past the \(policy.dailyBudget.formatted()) s extensionDailyBudget"
            : "runtime limit: \(entryPoint) ran longer than the \(limit.seconds.formatted()) s extensionRuntimeLimit"
        kill(app, pid: run.process.processIdentifier, reason: reason)
    }

    /// Kills an extension over a limit and records why.
    func kill(_ app: String, pid: Int32, reason: String) {
        guard let run = runs[app], run.process.processIdentifier == pid, run.ending == nil else { return }
        runs[app]?.ending = .killed(reason)
        runs.recordTermination(of: app, reason: reason)
        logger.error("Killed the extension of \(app) (pid \(pid)): \(reason).")
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: "extensionKilled", app: app, detail: reason))
        run.process.kill()
    }

    /// Kills every extension, for the service's stop.
    func killAll() {
        for app in runs.apps { runs[app]?.process.kill() }
    }

    /// The extension's connection closed: an extension that is not terminating has crashed or quit.
    func disconnected(connection: UInt64, app: String) {
        guard let run = runs[app], run.connection?.id == connection else { return }
        if run.ending == nil, !run.isTerminating {
            kill(app, pid: run.process.processIdentifier, reason: "crash: it closed its connection to the service")
        }
    }

    /// The process ended: its run is over, with the calls it owed and those that waited for it.
    /// - Returns: How it ended, or `nil` for a process the host no longer tracks.
    func exited(app: String, _ exit: ExtensionProcess.Exit, deviceNow: Date) -> Ending? {
        guard let run = runs[app], run.process.processIdentifier == exit.processIdentifier else { return nil }
        runs[app] = nil
        run.deadline?.cancel()
        run.memoryWatch?.cancel()
        run.idleTimer?.cancel()
        run.connection?.close()
        var owed = Array(run.pending.waiting)
        if let running = run.running {
            owed.insert(running.record, at: 0)
            charge(now.timeIntervalSince(running.sentAt), to: app, deviceNow: deviceNow)
        }
        let reason: String
        switch run.ending {
        case let .killed(why):
            reason = why
        case .finished:
            reason = "terminated after its work"
        case nil:
            reason = "crash: it \(exit) without being asked to"
            runs.recordTermination(of: app, reason: reason)
            logger.error("The extension of \(app) (pid \(exit.processIdentifier)) \(exit) on its own.")
        }
        let entry = TraceEntry(from: "extension", to: "backgroundassetsd", event: "extensionExited", app: app,
                               detail: "\(exit); \(reason); peak memory \(run.process.peakResidentBytes >> 20) MiB")
        let unsent = owed.filter { if case .willTerminate = $0.call { false } else { true } }
        return Ending(owed: unsent, deferred: runs.takeDeferred(of: app), reason: reason, traceEntry: entry)
    }

    // MARK: - Runtime

    /// Adds an entry point's runtime to the app's budget for today.
    ///
    /// The budget counts it at once; the app's record is written within a second, with the charges
    /// made meanwhile (see ``UnsavedRuntime``).
    func charge(_ seconds: TimeInterval, to app: String, deviceNow: Date) {
        let used = (runs.runtimeUsedToday(app) ?? 0) + max(0, seconds)
        runs.setRuntimeUsedToday(used, for: app)
        guard unsavedRuntime.add(UnsavedRuntime.Charge(seconds: seconds, date: deviceNow), for: app) else { return }
        let events = events
        unsavedRuntime.scheduled(activities.after(UnsavedRuntime.saveDelay, "runtime record of \(app)") {
            await events(.runtimeSaveDue(app: app))
        }, for: app)
    }
}
