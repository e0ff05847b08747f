/*
Abstract:
What the extension call lifecycle asks the service to do: launch, send, arm a timer, kill, charge runtime, settle a call.
*/

import BackgroundAssetsIPC
import Foundation

/// One thing to do, returned by ``ExtensionCallLifecycle``; the service does them in order
/// (`BackgroundAssetsService+Extensions`), with ``ExtensionHost`` for the process and its timers.
enum ExtensionCallAction: Sendable, Equatable {
    /// No extension of the app runs: write its unsaved runtime, read its record, and report it with
    /// ``ExtensionCallLifecycle/launchChecked(app:records:installed:now:deviceNow:)``.
    case prepareLaunch(app: String, [ExtensionCallRecord])
    /// Start the app's extension, then report ``ExtensionCallLifecycle/launched(app:pid:records:now:)``,
    /// or ``ExtensionCallLifecycle/launchFailed(app:records:reason:)`` when it does not start.
    case launch(InstalledApp, [ExtensionCallRecord])
    /// The extension is not launched: trace why, then abandon the calls with that reason.
    case refuseLaunch(app: String, [ExtensionCallRecord], reason: String)
    /// Send a call on the extension's connection and arm its deadline, which reports
    /// ``ExtensionCallLifecycle/deadlinePassed(app:callID:)`` when it passes.
    case send(app: String, callID: UInt64, ExtensionCallRecord, limit: ExtensionCallLimit)
    /// Send a call behind the running one, before it returned (``ExtensionCallRecord/mayBeSentAhead``),
    /// without a deadline: the extension runs it after the calls before it.
    case sendAhead(app: String, callID: UInt64, ExtensionCallRecord)
    /// A call sent ahead is the running call now: arm its deadline, from now.
    case startDeadline(app: String, callID: UInt64, limit: ExtensionCallLimit)
    /// A call returned: disarm its deadline and trace it with its runtime.
    case returned(app: String, ExtensionCallRecord, seconds: Double)
    /// Charge runtime to the app's budget record (written a moment later with others).
    case recordRuntime(app: String, seconds: Double)
    /// Arm the idle grace, replacing the app's idle timer; ``ExtensionCallLifecycle/idleGracePassed(app:holdsExclusiveControl:)`` follows.
    case armIdleGrace(app: String)
    /// Cancel the app's idle timer: work arrived.
    case cancelIdleTimer(app: String)
    /// Arm the limit of a hold on exclusive control after the last call; past it, the extension is killed.
    case armExclusiveControlLimit(app: String, pid: Int32, seconds: Double)
    /// Arm the wait for the process to exit after `extensionWillTerminate()` returned; past it,
    /// ``ExtensionCallLifecycle/forcedExitDue(app:pid:)`` follows.
    case armForcedExit(app: String, pid: Int32)
    /// Kill the process over a limit or a crash, logging and tracing the reason.
    case kill(app: String, pid: Int32, reason: String)
    /// Kill the process that outstayed `extensionWillTerminate()`, without a reason of its own.
    case killQuietly(app: String, pid: Int32)
    /// The process ended: release its connection and timers, write its runtime, trace the end
    /// (and log it when it ended on its own).
    case ended(app: String, ExtensionProcess.Exit, reason: String, unexpected: Bool)
    /// The extension is done with what it was given: an install waiting for it ends.
    case extensionDone(app: String)
    /// Ask an extension still idle to terminate, through ``ExtensionCallLifecycle/askToTerminate(app:now:)``;
    /// it comes after ``extensionDone(app:)``, which may give it work again.
    case askToTerminate(app: String)
    /// Give up on calls that will never run or return, for the reason given.
    case abandon(app: String, [ExtensionCallRecord], reason: String)
    /// A `downloads(for:...)` call's process ended after it sent parts of its answer and before it
    /// returned: what the parts scheduled stands, and the content request ends with it (the
    /// essential downloads held for the return are queued, and an install waits for them).
    case partlyReturned(app: String, ExtensionCallRecord, ReturnedPartsTally, reason: String)
}

extension ExtensionCallAction {
    /// The app whose extension the action concerns.
    var app: String {
        switch self {
        case let .launch(installed, _):
            installed.bundleIdentifier
        case let .prepareLaunch(app, _), let .refuseLaunch(app, _, _), let .send(app, _, _, _), let .sendAhead(app, _, _),
             let .startDeadline(app, _, _), let .returned(app, _, _), let .recordRuntime(app, _), let .armIdleGrace(app),
             let .cancelIdleTimer(app), let .armExclusiveControlLimit(app, _, _), let .armForcedExit(app, _),
             let .kill(app, _, _), let .killQuietly(app, _), let .ended(app, _, _, _), let .extensionDone(app),
             let .askToTerminate(app), let .abandon(app, _, _), let .partlyReturned(app, _, _, _):
            app
        }
    }
}

/// How long one call may run, and whether what cuts it is the daily budget.
struct ExtensionCallLimit: Sendable, Equatable {
    var seconds: Double
    var isBudget: Bool
}
