/*
Abstract:
Each app's extension calls from wanted to ended: a value the service owns, that turns each happening into actions.
*/

import BackgroundAssetsIPC
import Foundation

/// Every call the service makes to an app's extension, and the rules that launch the extension,
/// limit each call and end the process.
///
/// A value the service owns and tests drive directly, like ``InstallLifecycle``: no I/O and no clock
/// (the caller passes the time). Each method takes what happened (calls are wanted, the app's record
/// was read, the extension launched or checked in, a call returned, a deadline or a grace passed,
/// the process exited, the budget was reset) and returns the ``ExtensionCallAction``s to perform,
/// in order; `BackgroundAssetsService+Extensions` performs them, with ``ExtensionHost`` for the
/// process, its connection and its timers.
///
/// An app runs at most one extension process. Calls wanted while none runs launch one, unless the
/// app is gone, its daily budget is spent or the executable does not start; calls wanted while it
/// ends wait for a fresh launch. It is sent one call at a time once it checked in, each with a
/// deadline: the per-call limit cut to the budget left. Failure notices are the exception: up to
/// ``noticesInFlight`` of them are sent without waiting for the ones before to return
/// (``ExtensionRun/sentAhead``); the extension runs them one at a time, in order, and returns them
/// in order, so each is the running call in turn, its deadline counted from the return before it.
/// Idle for the grace, it is asked to terminate
/// (held off while it holds exclusive control, for at most the per-call limit). Its invariants:
/// - Every call ends exactly once: it returns (the caller acts on its result), or it is abandoned
///   with a reason, because the extension was not launched, or because the process ended before it
///   returned: killed at the call's deadline, over a limit, or on its own (a crash). Calls sent
///   ahead end as the queued ones do.
/// - Calls return in the order they were sent: a return for a call sent ahead, while a call before
///   it has not returned, is refused, and that call runs on to its deadline.
/// - A call past its deadline kills the process; the call is abandoned when the process exits,
///   unless it returned first.
/// - The process is killed at most once, and the reason recorded for `status` is the first one.
/// - Every second a call ran is charged to the app's budget: when it returns or when its process ends.
/// - `extensionWillTerminate()` is a call like the others but never abandoned: it only ends the run.
/// - A finished file handed to the extension stays in its hands (``ExtensionRun/hasFileInHand``)
///   until the extension is done with what it was given, when ``ExtensionCallAction/extensionDone(app:)``
///   says so: it let go of exclusive control with no other file owed, stayed idle for the grace
///   without asking for it, or ended. Until then exclusive control goes to its requests before
///   any other (``ExclusiveControlArbiter``).
/// - `downloads(for:...)` may send its answer in parts before it returns (``partReturned(_:callID:connection:limit:)``).
///   A part is downloads the entry point already returned, so the service schedules it as it arrives,
///   as it would the whole answer, and only a tally stays with the call (``ReturnedPartsTally``): what
///   was queued and refused, the identifiers seen, and the essential downloads held for the return.
///   A call whose process ends after parts and before its return is therefore not abandoned: it ends
///   partly returned (``ExtensionCallAction/partlyReturned(app:_:_:reason:)``), what its parts scheduled
///   stays scheduled and an install waits for their essential downloads, as if the call had returned
///   them; the downloads still to come are lost. One call's parts hold at most
///   ``maximumReturnedDownloads``: a part past it is refused whole, and the parts before it stand.
struct ExtensionCallLifecycle: Sendable {
    /// The runs, the calls waiting and what is remembered between launches.
    private(set) var runs = ExtensionRuns()
    /// The per-call limit and the daily budget.
    let policy: ExtensionRuntimePolicy
    private var nextCallID: UInt64 = 1

    /// The limit of `extensionWillTerminate()` itself.
    static let terminationLimit: Double = 2

    /// How many failure notices may be out at once, the running one included: enough that the
    /// extension always has the next one while the service acts on a return, few enough that an
    /// extension killed mid-window leaves little unsaid.
    static let noticesInFlight = 32

    init(policy: ExtensionRuntimePolicy) {
        self.policy = policy
    }

    /// Whether no extension runs.
    var isEmpty: Bool { runs.isEmpty }

    /// The process of an app's running extension.
    func pid(of app: String) -> Int32? { runs[app]?.pid }

    // MARK: - Launching

    /// Calls for an app's extension are wanted.
    mutating func callsWanted(_ records: [ExtensionCallRecord], app: String, now: Date) -> [ExtensionCallAction] {
        guard !records.isEmpty else { return [] }
        switch runs.queue(records, for: app) {
        case .toRunning:
            return [.cancelIdleTimer(app: app)] + nextCall(of: app, now: now)
        case .deferred:
            // The running process is on its way out; the calls wait for a fresh launch.
            return []
        case .needsLaunch:
            return [.prepareLaunch(app: app, records)]
        }
    }

    /// The app's record was read for a launch (`nil`: the app is not installed).
    /// - Parameters:
    ///   - now: The real time, which calls are timed on.
    ///   - deviceNow: The device time, which picks the budget's day.
    mutating func launchChecked(
        app: String, records: [ExtensionCallRecord], installed: InstalledApp?, now: Date, deviceNow: Date
    ) -> [ExtensionCallAction] {
        guard let installed else { return [.abandon(app: app, records, reason: "the app is not installed")] }
        // Another call may have launched it while the record was read.
        if runs[app] != nil { return callsWanted(records, app: app, now: now) }
        runs.setRuntimeUsedToday(installed.extensionRuntimeUsed(on: deviceNow), for: app)
        if case let .budgetExhausted(used) = policy.grant(for: installed, at: deviceNow) {
            let reason = "its daily runtime budget is spent (\(used.formatted()) of \(policy.dailyBudget.formatted()) s)"
            return [.refuseLaunch(app: app, records, reason: reason)]
        }
        return [.launch(installed, records)]
    }

    /// The extension's process started; it gets its calls once it checks in.
    mutating func launched(app: String, pid: Int32, records: [ExtensionCallRecord], now: Date) {
        var run = ExtensionRun(pid: pid, launchedAt: now)
        run.pending = ExtensionCallQueue(records)
        runs[app] = run
    }

    /// The extension's executable did not start.
    func launchFailed(app: String, records: [ExtensionCallRecord], reason: String) -> [ExtensionCallAction] {
        [.refuseLaunch(app: app, records, reason: reason)]
    }

    /// A process introduced itself as the app's extension on a connection.
    /// - Returns: How long after its launch it was ready, or `nil` when it is not the process launched
    ///   for the app, or it already checked in.
    mutating func checkedIn(app: String, pid: Int32, connection: UInt64, now: Date) -> TimeInterval? {
        guard let run = runs[app], run.pid == pid, run.connection == nil else { return nil }
        runs[app]?.connection = connection
        return now.timeIntervalSince(run.launchedAt)
    }

    // MARK: - Calls

    /// The extension may take its next call: it checked in, or its last call was acted on, or calls
    /// were queued. Failure notices are sent ahead too, up to ``noticesInFlight``.
    mutating func nextCall(of app: String, now: Date) -> [ExtensionCallAction] {
        // The run is looked at in a scope of its own: a copy still held when the call is taken would
        // make the queue copy every call waiting behind it.
        let isRunning: Bool
        do {
            guard let run = runs[app], run.connection != nil, run.ending == nil else { return [] }
            isRunning = run.running != nil
            if !isRunning, run.pending.isEmpty { return run.isTerminating ? [] : [.armIdleGrace(app: app)] }
        }
        var actions: [ExtensionCallAction] = []
        if !isRunning {
            guard let record = runs.takeNextCall(of: app) else { return [] }
            let id = takeCallID()
            let limit = limit(of: record, app: app)
            runs[app]?.running = ExtensionRun.RunningCall(id: id, record: record, sentAt: now, limit: limit)
            if case .contentRequest = record.purpose { runs.contentRequestStarted(app) }
            if case .delivery = record.purpose { runs[app]?.hasFileInHand = true }
            actions.append(.send(app: app, callID: id, record, limit: limit))
        }
        while runs.maySendAhead(of: app, window: Self.noticesInFlight), let record = runs.takeNextCall(of: app) {
            let id = takeCallID()
            runs[app]?.sentAhead.append(ExtensionRun.SentAheadCall(id: id, record: record))
            actions.append(.sendAhead(app: app, callID: id, record))
        }
        return actions
    }

    private mutating func takeCallID() -> UInt64 {
        defer { nextCallID += 1 }
        return nextCallID
    }

    /// The limit of a call: the per-call limit, cut to what is left of today's budget.
    private func limit(of record: ExtensionCallRecord, app: String) -> ExtensionCallLimit {
        if case .willTerminate = record.call { return ExtensionCallLimit(seconds: Self.terminationLimit, isBudget: false) }
        let left = max(0, policy.dailyBudget - (runs.runtimeUsedToday(app) ?? 0))
        return left < policy.entryPointLimit
            ? ExtensionCallLimit(seconds: left, isBudget: true) : ExtensionCallLimit(seconds: policy.entryPointLimit, isBudget: false)
    }

    /// What a returned call gives back: the call, for the caller to act on its result, and what to do first.
    struct Return: Equatable {
        var app: String
        var record: ExtensionCallRecord
        var actions: [ExtensionCallAction]
        /// Whether the next call follows once the result was acted on; not after `extensionWillTerminate()`.
        var sendsNext: Bool
        /// What the parts the call sent before it returned did; the result's downloads come after them.
        var parts = ReturnedPartsTally()
    }

    /// A call returned on a connection.
    /// - Returns: The call and its actions, or `nil` when no such call runs there (it already ended).
    mutating func callReturned(callID: UInt64, connection: UInt64, now: Date) -> Return? {
        guard let (app, run) = runs.run(onConnection: connection), let running = run.running, running.id == callID else {
            return nil
        }
        runs[app]?.running = nil
        if case .contentRequest = running.record.purpose { runs.contentRequestEnded(app) }
        let elapsed = now.timeIntervalSince(running.sentAt)
        var actions: [ExtensionCallAction] = [.returned(app: app, running.record, seconds: elapsed)] + charge(elapsed, to: app)
        let isLast = running.record.call == .willTerminate
        if isLast {
            runs[app]?.ending = .finished
            actions.append(.armForcedExit(app: app, pid: run.pid))
        }
        // The extension begins the call sent behind it now: its time and its deadline count from here.
        if !run.sentAhead.isEmpty, let next = runs[app]?.sentAhead.removeFirst() {
            let limit = limit(of: next.record, app: app)
            runs[app]?.running = ExtensionRun.RunningCall(id: next.id, record: next.record, sentAt: now, limit: limit)
            actions.append(.startDeadline(app: app, callID: next.id, limit: limit))
        }
        return Return(app: app, record: running.record, actions: actions, sendsNext: !isLast, parts: running.parts)
    }

    /// Part of the answer of the running call of a connection arrived: it is counted, and its
    /// identifiers are remembered so that none is scheduled twice; the service schedules it, then
    /// reports what that did with ``partScheduled(_:callID:connection:)``.
    ///
    /// Here rather than with ``maximumReturnedDownloads``: only this file may change ``runs``.
    /// - Parameters:
    ///   - identifiers: The identifiers of the part's downloads, in order.
    ///   - limit: The most downloads the parts may hold together; a part past it is refused whole.
    /// - Returns: The call's app and content request, and the identifiers an earlier part held.
    /// - Throws: ``ReturnedPartRefusal`` when that call does not run there or does not answer with
    ///   downloads, or the parts would grow past the limit.
    mutating func partReturned(
        _ identifiers: [String], callID: UInt64, connection: UInt64, limit: Int = maximumReturnedDownloads
    ) throws(ReturnedPartRefusal) -> ReturnedPart {
        let (app, kind) = try runningDownloadsCall(callID: callID, connection: connection)
        // Taken out of the run while it grows: a copy still held in the run would make every part
        // copy all the identifiers remembered before it.
        var tally = runs[app]?.running?.parts ?? ReturnedPartsTally()
        guard tally.count + identifiers.count <= limit else { throw .tooMany(tally.count + identifiers.count) }
        runs[app]?.running?.parts = ReturnedPartsTally()
        let returnedBefore = tally.add(identifiers)
        runs[app]?.running?.parts = tally
        return ReturnedPart(app: app, kind: kind, returnedBefore: returnedBefore)
    }

    /// The service scheduled a part of a call's answer. Nothing is kept when the call ended meanwhile
    /// (its process exited while the part was being queued).
    /// - Returns: Whether the call still runs there, so the outcome is kept with it.
    @discardableResult
    mutating func partScheduled(_ outcome: ScheduledReturn, callID: UInt64, connection: UInt64) -> Bool {
        guard let (app, _) = try? runningDownloadsCall(callID: callID, connection: connection) else { return false }
        var tally = runs[app]?.running?.parts ?? ReturnedPartsTally()
        runs[app]?.running?.parts = ReturnedPartsTally()
        tally.add(outcome)
        runs[app]?.running?.parts = tally
        return true
    }

    /// The app and the content request of the `downloads(for:...)` call running on a connection.
    private func runningDownloadsCall(callID: UInt64, connection: UInt64) throws(ReturnedPartRefusal) -> (String, ContentRequestKind) {
        // Only the app and the call are kept from the lookup, for the reason given in partReturned.
        let found = runs.run(onConnection: connection).flatMap { found in
            found.run.running.flatMap { $0.id == callID ? (found.app, $0.record.call) : nil }
        }
        guard let (app, call) = found else { throw .noSuchCall }
        guard case let .downloads(kind, _, _, _) = call else { throw .notDownloads(entryPoint: call.entryPoint) }
        return (app, kind)
    }

    /// A call's deadline passed: if it still runs, the process is killed, as the system does.
    mutating func deadlinePassed(app: String, callID: UInt64) -> [ExtensionCallAction] {
        guard let run = runs[app], let running = run.running, running.id == callID else { return [] }
        let entryPoint = running.record.call.entryPoint
        let limit = running.limit
        let reason = limit.isBudget
            ? "daily budget: \(entryPoint) ran past the \(policy.dailyBudget.formatted()) s extensionDailyBudget"
            : "runtime limit: \(entryPoint) ran longer than the \(limit.seconds.formatted()) s extensionRuntimeLimit"
        return kill(app, pid: run.pid, reason: reason)
    }

    // MARK: - Ending

    /// The extension was idle for the grace: done with its work, it is asked to terminate, unless it
    /// holds (or waits for) exclusive control, which keeps it for at most the per-call limit, since
    /// holding the lock is work like any other.
    mutating func idleGracePassed(app: String, holdsExclusiveControl: Bool) -> [ExtensionCallAction] {
        guard isIdle(app), let run = runs[app] else { return [] }
        if holdsExclusiveControl {
            return [.armExclusiveControlLimit(app: app, pid: run.pid, seconds: policy.entryPointLimit)]
        }
        runs[app]?.hasFileInHand = false
        return [.extensionDone(app: app), .askToTerminate(app: app)]
    }

    /// Sends `extensionWillTerminate()` to an extension that is still idle.
    mutating func askToTerminate(app: String, now: Date) -> [ExtensionCallAction] {
        guard isIdle(app) else { return [] }
        runs[app]?.isTerminating = true
        runs[app]?.pending = ExtensionCallQueue([ExtensionCallRecord(call: .willTerminate, purpose: .notice)])
        return nextCall(of: app, now: now)
    }

    /// How many calls an app's extension owes (queued and running), when it runs, checked in and
    /// not on its way out; `nil` otherwise, when calls wanted go to a launch.
    func callsOwed(by app: String) -> Int? {
        guard let run = runs[app], run.connection != nil, run.ending == nil, !run.isTerminating else { return nil }
        return run.pending.count + run.sentAhead.count + (run.running == nil ? 0 : 1)
    }

    /// Whether an app's extension runs, checked in, with no call running or queued, and is not ending.
    func isIdle(_ app: String) -> Bool {
        guard let run = runs[app] else { return false }
        return !run.hasWork && !run.isTerminating && run.ending == nil && run.connection != nil
    }

    /// The extension let go of exclusive control: with nothing to do, it is idle from now.
    ///
    /// Holding nothing and waiting for nothing as well, it is done with the files it was given: it
    /// asks for exclusive control inside the call that hands it a file, so that request reaches the
    /// service before the call's return, and its release after. An install waiting for it ends at
    /// once instead of after the idle grace, even while failure notices are still on their way to
    /// it: they hand it no file, and an install that refused thousands of downloads would otherwise
    /// wait for all of them, and then for the grace. Any other call running or queued (a file, a
    /// challenge, a content request) keeps the install waiting. The grace still decides when the
    /// extension is asked to terminate, since it may ask again for something of its own.
    /// - Parameter holdsExclusiveControl: Whether the extension still holds or waits for exclusive control.
    mutating func releasedExclusiveControl(app: String, connection: UInt64, holdsExclusiveControl: Bool) -> [ExtensionCallAction] {
        guard let run = runs[app], run.connection == connection else { return [] }
        let isDoneWithFiles = !holdsExclusiveControl && !run.owesCallsOtherThanNotices
        if isDoneWithFiles { runs[app]?.hasFileInHand = false }
        return (isDoneWithFiles ? [.extensionDone(app: app)] : []) + (run.hasWork ? [] : [.armIdleGrace(app: app)])
    }

    /// The process outstayed `extensionWillTerminate()`.
    func forcedExitDue(app: String, pid: Int32) -> [ExtensionCallAction] {
        guard runs[app]?.pid == pid else { return [] }
        return [.killQuietly(app: app, pid: pid)]
    }

    /// The process must go (over its memory limit, holding exclusive control too long, its app
    /// uninstalled): it is killed once, and the first reason is the one remembered.
    mutating func kill(_ app: String, pid: Int32, reason: String) -> [ExtensionCallAction] {
        guard let run = runs[app], run.pid == pid, run.ending == nil else { return [] }
        runs[app]?.ending = .killed(reason)
        runs.recordTermination(of: app, reason: reason)
        return [.kill(app: app, pid: pid, reason: reason)]
    }

    /// The extension's connection closed: one that was not asked to go has crashed or quit.
    mutating func disconnected(app: String, connection: UInt64) -> [ExtensionCallAction] {
        guard let run = runs[app], run.connection == connection, run.ending == nil, !run.isTerminating else { return [] }
        return kill(app, pid: run.pid, reason: "crash: it closed its connection to the service")
    }

    /// The process ended: the call it ran and those queued are abandoned, with the reason it ended,
    /// and calls that waited for a fresh launch get one.
    mutating func processExited(app: String, _ exit: ExtensionProcess.Exit, now: Date) -> [ExtensionCallAction] {
        guard let run = runs[app], run.pid == exit.processIdentifier else { return [] }
        runs[app] = nil
        var owed = run.sentAhead.map(\.record) + Array(run.pending.waiting)
        var actions: [ExtensionCallAction] = []
        // A call that sent parts of its answer returned them: it is not abandoned (see the type's rules).
        var partlyReturned: ExtensionRun.RunningCall?
        if let running = run.running {
            if running.parts.count > 0 { partlyReturned = running } else { owed.insert(running.record, at: 0) }
            if case .contentRequest = running.record.purpose { runs.contentRequestEnded(app) }
            actions += charge(now.timeIntervalSince(running.sentAt), to: app)
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
        }
        actions.append(.ended(app: app, exit, reason: reason, unexpected: run.ending == nil))
        actions.append(.extensionDone(app: app))
        if let partlyReturned { actions.append(.partlyReturned(app: app, partlyReturned.record, partlyReturned.parts, reason: reason)) }
        let unsent = owed.filter { $0.call != .willTerminate }
        if !unsent.isEmpty { actions.append(.abandon(app: app, unsent, reason: reason)) }
        let deferred = runs.takeDeferred(of: app)
        if !deferred.isEmpty { actions.append(.prepareLaunch(app: app, deferred)) }
        return actions
    }

    // MARK: - Runtime and what the service reads

    /// Adds a call's runtime to the app's budget for today, at once; the record follows.
    private mutating func charge(_ seconds: Double, to app: String) -> [ExtensionCallAction] {
        runs.setRuntimeUsedToday((runs.runtimeUsedToday(app) ?? 0) + max(0, seconds), for: app)
        return [.recordRuntime(app: app, seconds: seconds)]
    }

    /// The app's budget was reset (`simulate` resets it, as Apple's tool does): none is used today.
    mutating func budgetReset(app: String) {
        runs.setRuntimeUsedToday(0, for: app)
    }

    /// The app was uninstalled: its extension is killed and its budget forgotten.
    mutating func appRemoved(_ app: String) -> [ExtensionCallAction] {
        let actions = runs[app].map { kill(app, pid: $0.pid, reason: "the app was uninstalled") } ?? []
        runs.setRuntimeUsedToday(nil, for: app)
        return actions
    }

    /// Removes and returns the finished files queued for the extension and not sent yet, for a
    /// delegate that can take them now (see ``ExtensionRuns/takeUnsentDeliveries(of:)``).
    mutating func takeUnsentDeliveries(of app: String) -> [ExtensionCallRecord] {
        runs.takeUnsentDeliveries(of: app)
    }
}
