/*
Abstract:
The extension host: starts an app's extension, carries its calls, runs its timers, and kills it, as the call lifecycle decides.
*/

import BackgroundAssetsIPC
import Foundation
import SystemLogging

/// The I/O of app extensions: each process started from its installed bundle, its connection, its
/// memory watch, the timers of its calls and its idleness, its kill, and the runtime it is charged
/// until the app's record has it.
///
/// It decides nothing: ``ExtensionCallLifecycle`` decides, and the service performs its actions with
/// the host. What happens later (a deadline passing, a process exiting, memory over the limit) comes
/// back as an ``Event`` the service hands to the lifecycle.
final class ExtensionHost {
    /// What happened while nobody was calling the host; the service hands each to the lifecycle.
    enum Event: Sendable {
        /// The extension checked in: its first call can be sent.
        case checkedIn(app: String)
        /// A call's deadline passed.
        case deadlinePassed(app: String, callID: UInt64)
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

    /// One running extension's process, connection and timers.
    private struct Handles {
        let process: ExtensionProcess
        var connection: ClientConnection?
        /// The running call's deadline; `nil` between calls.
        var deadline: (callID: UInt64, date: Date)?
        /// The one timer that watches the deadlines of the extension's calls, and when it wakes.
        var deadlineTimer: (activity: ServiceActivities.Activity, wakesAt: Date)?
        var memoryWatch: ServiceActivities.Activity?
        var idleTimer: ServiceActivities.Activity?

        init(process: ExtensionProcess) {
            self.process = process
        }
    }

    /// How long an idle extension is kept before `extensionWillTerminate()`: long enough for a
    /// request it sends just after returning (exclusive control from a `Task`) to arrive.
    static let extensionIdleGrace: Duration = .milliseconds(250)
    /// The wait for the process to exit after `extensionWillTerminate()` returned.
    static let terminationGrace: Double = 2
    /// How often the extension's resident memory is sampled.
    static let memorySampleInterval: Duration = .milliseconds(50)

    /// Runtime charged to the budget but not yet written to the app's record.
    var unsavedRuntime = UnsavedRuntime()

    private var handles: [String: Handles] = [:]
    /// The notices waiting past the call queue of each running extension that has them.
    private var noticeBacklogs: [String: ExtensionNoticeBacklog] = [:]
    private let paths: DevicePaths
    private let memoryLimit: Int64
    private let activities: ServiceActivities
    private let trace: ServiceTrace
    private let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")
    private let events: @Sendable (Event) async -> Void

    /// Creates the host.
    /// - Parameters:
    ///   - paths: The device root, passed to each extension.
    ///   - configuration: The memory limit.
    ///   - activities: The owner of the host's timers and watchers, and the clock they run on.
    ///   - trace: Where launches, calls and endings are recorded.
    ///   - events: Receives what happens later; the service hands each event to the lifecycle.
    init(
        paths: DevicePaths, configuration: ServiceConfiguration, activities: ServiceActivities, trace: ServiceTrace,
        events: @escaping @Sendable (Event) async -> Void
    ) {
        self.paths = paths
        memoryLimit = configuration.extensionMemoryLimit
        self.activities = activities
        self.trace = trace
        self.events = events
        // No extension runs yet: notices a service that ended left waiting are no process's any more.
        try? FileManager.default.removeItem(at: Self.noticesFolder(in: paths))
    }

    /// Where the notices waiting past each running extension's call queue are written.
    static func noticesFolder(in paths: DevicePaths) -> URL {
        paths.stagingDirectory.appending(path: "notices", directoryHint: .isDirectory)
    }

    // MARK: - Launching

    /// Starts an app's extension from its installed bundle, and its memory watch.
    /// - Returns: The process's id.
    /// - Throws: The error that kept the executable from starting, or ``ServiceStopping``.
    @discardableResult
    func launch(_ installed: InstalledApp) throws -> Int32 {
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
        var handle = Handles(process: process)
        let limit = memoryLimit
        let pid = process.processIdentifier
        let wallClock = activities.wallClock
        handle.memoryWatch = activities.run("memory watch of \(app)'s extension") {
            while !Task.isCancelled {
                guard let resident = process.residentBytes else { return }
                if resident > limit {
                    let reason = "memory limit: its resident memory reached \(resident >> 20) MiB, over extensionMemoryLimit \(limit >> 20) MiB"
                    await events(.overLimit(app: app, pid: pid, reason: reason))
                    return
                }
                try? await wallClock.sleep(for: Self.memorySampleInterval)
            }
        }
        handles[app] = handle
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: "extensionLaunched", app: app, detail: "pid \(pid)"))
        return pid
    }

    /// Records that the extension was not launched, and why.
    func notLaunched(_ app: String, reason: String) {
        trace.append(.init(from: "backgroundassetsd", to: "nobody", event: "extensionNotLaunched", app: app, detail: reason))
    }

    /// The extension checked in on a connection, as the lifecycle accepted: its calls go there, the
    /// first once the check-in's answer is written.
    func checkedIn(_ app: String, connection: ClientConnection, coldStart: TimeInterval) {
        handles[app]?.connection = connection
        trace.append(.init(from: "extension", to: "backgroundassetsd", event: "extensionCheckIn", app: app,
                           detail: "ready \(coldStart.wholeMilliseconds) ms after launch"))
        let events = events
        activities.run("first call to \(app)'s extension") { await events(.checkedIn(app: app)) }
    }

    // MARK: - Calls

    /// Sends a call and sets its deadline; a call sent ahead (`limit` is `nil`) gets its deadline
    /// when it becomes the running call (``startDeadline(of:limit:for:isolation:)``).
    func send(_ record: ExtensionCallRecord, callID: UInt64, limit: ExtensionCallLimit?, to app: String,
              isolation: isolated (any Actor)? = #isolation) {
        guard let connection = handles[app]?.connection else { return }
        handles[app]?.idleTimer?.cancel()
        if let limit { startDeadline(of: callID, limit: limit, for: app) }
        // Traced before it is sent, so the trace never shows the extension's answer before the call.
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: record.call.entryPoint, app: app,
                           download: record.call.downloadIdentifier, detail: record.call.traceDetail))
        connection.send(.event(.extensionCall(callID: callID, call: record.call)))
    }

    /// Sets the deadline of the running call, `limit` from now.
    func startDeadline(of callID: UInt64, limit: ExtensionCallLimit, for app: String, isolation: isolated (any Actor)? = #isolation) {
        let date = activities.wallClock.now.addingTimeInterval(limit.seconds)
        handles[app]?.deadline = (callID, date)
        watchDeadline(of: app, until: date)
    }

    /// A call returned: its deadline is cleared and the return traced.
    func returned(_ record: ExtensionCallRecord, of app: String, seconds: Double) {
        // The timer sleeps on; see ``watchDeadline(of:until:isolation:)``.
        handles[app]?.deadline = nil
        trace.append(.init(from: "extension", to: "backgroundassetsd", event: "return", app: app,
                           download: record.call.downloadIdentifier,
                           detail: "\(record.call.entryPoint) in \(seconds.wholeMilliseconds) ms"))
    }

    // MARK: - Timers

    /// Makes sure the extension's deadline timer wakes by `date`.
    ///
    /// One timer serves every call of the extension, and a call that returns leaves it sleeping
    /// instead of cancelling it: `Task.sleep` on Linux keeps a cancelled sleep's memory until the time
    /// it was to wake, and an extension told of 100,000 downloads answers tens of thousands of calls a
    /// minute. The timer is set again only for a deadline earlier than it wakes.
    private func watchDeadline(of app: String, until date: Date, isolation: isolated (any Actor)? = #isolation) {
        if let timer = handles[app]?.deadlineTimer, timer.wakesAt <= date { return }
        handles[app]?.deadlineTimer?.activity.cancel()
        let activity = activities.atIsolated(date, "deadline of \(app)'s calls") { [weak self] in
            await self?.deadlineTimerWoke(app)
        }
        handles[app]?.deadlineTimer = (activity, date)
    }

    /// The deadline timer woke: the running call's deadline has passed, or it sleeps until it does.
    private func deadlineTimerWoke(_ app: String, isolation: isolated (any Actor)? = #isolation) async {
        handles[app]?.deadlineTimer = nil
        guard let deadline = handles[app]?.deadline else { return }
        // Within the wait's microsecond: a date and a clock advanced by the same seconds may differ
        // in their last bits, and a wait of less than a microsecond does not sleep.
        guard deadline.date.timeIntervalSince(activities.wallClock.now) < 0.000_001 else {
            return watchDeadline(of: app, until: deadline.date)
        }
        await events(.deadlinePassed(app: app, callID: deadline.callID))
    }

    /// Arms the idle grace, replacing the app's idle timer.
    func armIdleGrace(of app: String) {
        replaceIdleTimer(of: app, with: activities.after(Self.extensionIdleGrace, "idle grace of \(app)'s extension") {
            [events] in await events(.idle(app: app))
        })
    }

    /// Cancels the app's idle timer.
    func cancelIdleTimer(of app: String) {
        handles[app]?.idleTimer?.cancel()
    }

    /// Arms the limit of a hold on exclusive control after the extension's last call.
    func armExclusiveControlLimit(of app: String, pid: Int32, seconds: Double) {
        let events = events
        replaceIdleTimer(of: app, with: activities.after(.seconds(fractional: seconds), "exclusive-control limit of \(app)'s extension") {
            let reason = "runtime limit: it held exclusive control for more than the \(seconds.formatted()) s extensionRuntimeLimit after its last entry point returned"
            await events(.overLimit(app: app, pid: pid, reason: reason))
        })
    }

    private func replaceIdleTimer(of app: String, with timer: ServiceActivities.Activity) {
        handles[app]?.idleTimer?.cancel()
        if handles[app] == nil { timer.cancel() } else { handles[app]?.idleTimer = timer }
    }

    /// Arms the wait for the process to exit on its own after `extensionWillTerminate()`.
    func armForcedExit(of app: String, pid: Int32) {
        let events = events
        activities.after(.seconds(fractional: Self.terminationGrace), "forced exit of \(app)'s extension") {
            await events(.forcedExitDue(app: app, pid: pid))
        }
    }

    // MARK: - Ending

    /// Kills an extension over a limit and records why.
    func kill(_ app: String, pid: Int32, reason: String) {
        guard let process = handles[app]?.process, process.processIdentifier == pid else { return }
        logger.error("Killed the extension of \(app) (pid \(pid)): \(reason).")
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: "extensionKilled", app: app, detail: reason))
        process.kill()
    }

    /// Kills a process that outstayed `extensionWillTerminate()`.
    func killQuietly(_ app: String, pid: Int32) {
        guard let process = handles[app]?.process, process.processIdentifier == pid else { return }
        process.kill()
    }

    /// Kills every extension, for the service's stop.
    func killAll() {
        for handle in handles.values { handle.process.kill() }
    }

    /// The process ended: its timers and watch stop, its connection closes, and it is forgotten.
    /// - Returns: The trace's account of the end, to write once its runtime is in the app's record.
    func ended(_ app: String, _ exit: ExtensionProcess.Exit, reason: String, unexpected: Bool) -> TraceEntry {
        let handle = handles.removeValue(forKey: app)
        // Abandoned with the process, as the notices of its call queue are.
        noticeBacklogs[app] = nil
        handle?.deadlineTimer?.activity.cancel()
        handle?.memoryWatch?.cancel()
        handle?.idleTimer?.cancel()
        handle?.connection?.close()
        if unexpected { logger.error("The extension of \(app) (pid \(exit.processIdentifier)) \(exit) on its own.") }
        let peak = (handle?.process.peakResidentBytes ?? 0) >> 20
        return TraceEntry(from: "extension", to: "backgroundassetsd", event: "extensionExited", app: app,
                          detail: "\(exit); \(reason); peak memory \(peak) MiB")
    }

    // MARK: - Notices past the call queue

    /// How many notices wait in the backlog of the app's extension.
    func heldNoticeCount(of app: String) -> Int {
        noticeBacklogs[app]?.count ?? 0
    }

    /// Writes notices for the app's running extension to its backlog, after those waiting there.
    func holdNotices(_ calls: [ExtensionCall], of app: String) throws {
        let backlog = try noticeBacklogs[app] ?? ExtensionNoticeBacklog(
            file: Self.noticesFolder(in: paths).appending(path: "\(app).jsonl"))
        noticeBacklogs[app] = backlog
        try backlog.append(calls)
    }

    /// Removes and returns the next batch of the notices waiting for the app's extension, as calls to queue.
    /// A backlog that cannot be read is dropped, and said so: its notices would never come back.
    func takeHeldNotices(of app: String) -> [ExtensionCallRecord] {
        guard let backlog = noticeBacklogs[app] else { return [] }
        do {
            let calls = try backlog.takeBatch()
            if backlog.count == 0 { noticeBacklogs[app] = nil }
            return calls.map { ExtensionCallRecord(call: $0, purpose: .notice) }
        } catch {
            logger.error("The \(backlog.count) failed-download notices waiting for the extension of \(app) could not be read, and are dropped: \(error)")
            noticeBacklogs[app] = nil
            return []
        }
    }

    // MARK: - Runtime

    /// Keeps an entry point's runtime until the app's record is written, within a second, with the
    /// charges made meanwhile (see ``UnsavedRuntime``).
    func recordRuntime(_ seconds: Double, of app: String, deviceNow: Date) {
        guard unsavedRuntime.add(UnsavedRuntime.Charge(seconds: seconds, date: deviceNow), for: app) else { return }
        let events = events
        unsavedRuntime.scheduled(activities.after(UnsavedRuntime.saveDelay, "runtime record of \(app)") {
            await events(.runtimeSaveDue(app: app))
        }, for: app)
    }
}
