/*
Abstract:
Each app's install from its start until it is launchable: a value the service owns, that turns each happening into actions.
*/

import BackgroundAssetsIPC
import Foundation

/// Every install and update in progress, and the rules that take each one to its end.
///
/// A value the service owns and tests drive directly, like ``AssetPackState``: no I/O and no clock
/// (the caller passes the time). Each method takes what happened and returns the ``InstallAction``s
/// to perform, in order; `BackgroundAssetsService+InstallActions` performs them.
///
/// An install starts (``begin(_:)``), asks the extension for its downloads, runs the essential ones
/// it chose (or the essential asset packs it accepted), hands their outcomes to the extension in
/// one launch, and ends once the extension is done with them; any step may end it early, with a
/// note that says why. Its invariants:
/// - An install ends exactly once: the first end takes its run and returns ``InstallAction/releaseOtherDownloads(app:)``
///   and ``InstallAction/markLaunchable(app:note:)``; every later end of it does nothing.
/// - The app is launchable exactly when no run is recorded for it.
/// - The essential phase ends only when every essential download settled (finished, failed, or
///   its pack installed or refused). Its outcomes go to the extension in one batch whose last
///   call ends the install when it returns, or when it never will; with no outcome to give, the
///   install ends at once.
/// - While essential downloads run, the app's other downloads are held; they are released when
///   the install ends or the app is uninstalled.
/// - A launch gate that waits is answered exactly once: with the app's status when it becomes
///   launchable, with a refusal when the app is uninstalled, or never when its connection closed.
/// - A launch is recorded at most once per end, however many gates or opened processes wait.
/// - A periodic content request never ends an install.
struct InstallLifecycle: Sendable {
    typealias LaunchWaiter = InstallTracker.LaunchWaiter

    /// What a repeated install request meets.
    enum Admission: Equatable {
        /// No install of the app runs: start one.
        case start
        /// The same version is installing: follow it.
        case join
        /// Another version is installing: refuse, naming it.
        case busy(runningVersion: String)
    }

    /// What the gates of an app that became launchable get.
    struct GateRelease: Equatable {
        /// Whether to record one launch first, for every gate that asked for one.
        var recordsLaunch: Bool
        /// The gates to answer with the app's status, in the order they asked.
        var answers: [LaunchWaiter]
    }

    /// What a launch gate gets when it asks.
    enum GateAnswer: Equatable {
        /// The app is launchable: answer now (recording a launch if the gate asked to).
        case now
        /// The app installs: the gate waits, and first learns where the install stands.
        case waits([InstallAction])
    }

    /// The runs, the gates waiting and the outcomes kept.
    private(set) var tracker = InstallTracker()

    /// Whether no install is running.
    var isEmpty: Bool { tracker.isEmpty }

    /// The apps installing or updating now.
    var apps: Set<String> { tracker.apps }

    /// Whether an app is installing or updating; it is launchable otherwise.
    func isInstalling(_ app: String) -> Bool { tracker[app] != nil }

    /// The running install of an app.
    func run(of app: String) -> InstallRun? { tracker[app] }

    /// An app's install progress: its install's now, else how its last one ended, else complete.
    func progress(of app: String) -> InstallProgress {
        tracker[app]?.progress ?? tracker.outcome(of: app)?.progress
            ?? InstallProgress(phase: .complete, completedBytes: 0, totalBytes: 0)
    }

    /// How an app's last install ended, as `install --wait` prints it.
    func summary(of app: String) -> String? { tracker.outcome(of: app)?.summary }

    /// Why the app's last install got no content at all (its manifest could not be fetched), if so.
    func contentFailure(of app: String) -> String? { tracker.outcome(of: app)?.contentFailure }

    /// The rows of the essential files held for the app's extension until the essential phase ends.
    func essentialFilesHeld(of app: String) -> Set<Int64> {
        Set((tracker[app]?.essential?.finished ?? []).map(\.rowID))
    }

    // MARK: - Starting and removing

    /// Whether an install of a version may start, or joins or meets the one in progress.
    func admit(app: String, version: String) -> Admission {
        guard let running = tracker[app] else { return .start }
        return running.version == version ? .join : .busy(runningVersion: running.version)
    }

    /// An install or update starts (registered, or simulated): the app is not launchable until it ends,
    /// and it joins ``apps``, which the service publishes to the schedules.
    mutating func begin(_ run: InstallRun) -> [InstallAction] {
        tracker.begin(run, for: run.bundleIdentifier)
        return []
    }

    /// The app is uninstalled: its install is forgotten, its downloads released, and its gates refused.
    mutating func uninstalled(app: String) -> [InstallAction] {
        let waiters = tracker.cancel(app)
        return [.releaseOtherDownloads(app: app)] + waiters.map { .refuseLaunchGate($0, app: app) }
    }

    /// A connection closed: it waits at no gate any more.
    mutating func connectionClosed(_ connection: UInt64) {
        tracker.connectionClosed(connection)
    }

    // MARK: - The launch gate

    /// A launch gate asks whether the app is launchable.
    mutating func launchGateAsks(app: String, _ waiter: LaunchWaiter) -> GateAnswer {
        guard let run = tracker[app] else { return .now }
        tracker.wait(waiter, for: app)
        return .waits([.pushProgress(app: app, run.progress, to: [waiter.connection])])
    }

    /// The app was recorded as launchable: the gates waiting are answered, and a launch is recorded
    /// once when one of them asked for it or a process of the app was opened while it installed.
    /// - Parameters:
    ///   - app: The app.
    ///   - hasOpenedProcess: Whether a process of the app, opened while it installed, is connected.
    mutating func becameLaunchable(app: String, hasOpenedProcess: Bool) -> GateRelease {
        let waiters = tracker.takeWaiters(of: app)
        return GateRelease(recordsLaunch: waiters.contains(where: \.recordLaunch) || hasOpenedProcess, answers: waiters)
    }

    // MARK: - The extension

    /// The call that ends the install returned: the install ends now, or, while the extension runs,
    /// once it is done (it moves the files into place under exclusive control, which it asks for
    /// as its call returns), so a person opening the app at once finds its essential files.
    mutating func essentialOutcomesReturned(app: String, extensionConnected: Bool) -> [InstallAction] {
        guard extensionConnected else { return end(app, note: nil) }
        tracker.holdUntilExtensionIsDone(app)
        return []
    }

    /// The app's extension stayed idle for the idle grace, or ended: an install held for it ends.
    mutating func extensionDone(app: String) -> [InstallAction] {
        guard tracker.takeHeldForExtension(app) else { return [] }
        return end(app, note: nil)
    }

    /// The call that ends the install will never run or return.
    mutating func essentialOutcomesUndelivered(app: String, reason: String) -> [InstallAction] {
        end(app, note: "The extension did not receive every essential outcome (\(reason)).")
    }

    /// The content request's call will never run or return.
    mutating func contentRequestAbandoned(app: String, kind: ContentRequestKind, reason: String) -> [InstallAction] {
        contentRequestEnded(app: app, kind: kind, note: "The extension did not return downloads (\(reason)), so the app became launchable without essential assets.")
    }

    // MARK: - A restart in the middle

    /// The service started and found the app still installing: its essential downloads are still
    /// queued, and the install continues with them; with none left, it ends.
    /// - Parameters:
    ///   - run: The install, as it starts again.
    ///   - essentialRows: The app's essential rows the queue still has, with their declared sizes.
    mutating func resumed(_ run: InstallRun, essentialRows: [(id: Int64, size: Int64)]) -> [InstallAction] {
        let app = run.bundleIdentifier
        tracker[app] = run
        guard !essentialRows.isEmpty else {
            return end(app, note: "The service restarted during the install, with no essential download left.")
        }
        beginEssentialPhase(app, rows: essentialRows, arePacks: false)
        return [.holdOtherDownloads(app: app)]
    }

    // MARK: - Shared steps

    /// Ends an app's install, once: it becomes launchable and its other downloads start.
    mutating func end(_ app: String, note: String?, contentFailure: String? = nil) -> [InstallAction] {
        // Recorded before anything suspends: a launch gate asking meanwhile finds the app
        // launchable, and finds how its install ended too.
        guard tracker.finish(app, note: note, contentFailure: contentFailure) != nil else { return [] }
        return [.releaseOtherDownloads(app: app), .markLaunchable(app: app, note: note)]
    }

    /// The install's progress, for the gates waiting for it.
    func progressPush(of app: String) -> [InstallAction] {
        let waiters = tracker.waiters(of: app)
        guard !waiters.isEmpty else { return [] }
        return [.pushProgress(app: app, progress(of: app), to: waiters.map(\.connection))]
    }

    /// Changes an app's running install in place.
    mutating func update(_ app: String, _ change: (inout InstallRun) -> Void) {
        guard var run = tracker[app] else { return }
        change(&run)
        tracker[app] = run
    }
}
