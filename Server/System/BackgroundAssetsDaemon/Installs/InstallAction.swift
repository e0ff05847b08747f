/*
Abstract:
What the install lifecycle asks the service to do: hold or release downloads, call the extension, mark launchable, answer gates.
*/

import BackgroundAssetsIPC
import Foundation

/// One thing to do, returned by ``InstallLifecycle``; the service does them in order.
enum InstallAction: Sendable, Equatable {
    /// Hold the app's downloads in the queue, except the essential ones: nothing else of the app
    /// starts before its essential downloads ended.
    case holdOtherDownloads(app: String)
    /// Let the app's held downloads start: its install ended.
    case releaseOtherDownloads(app: String)
    /// Queue calls for the app's extension: the essential outcomes, the last of which ends the
    /// install once it returns (``InstallLifecycle/essentialOutcomesReturned(app:extensionConnected:)``).
    case callExtension(app: String, [ExtensionCallRecord])
    /// Record the app as launchable and trace it, with the note when the install did not end the
    /// ordinary way; then release its launch gates as ``InstallLifecycle/becameLaunchable(app:hasOpenedProcess:)`` says.
    case markLaunchable(app: String, note: String?)
    /// Refuse a launch gate: the app was uninstalled while it installed.
    case refuseLaunchGate(InstallTracker.LaunchWaiter, app: String)
    /// Send the install's progress to connections waiting at its launch gate.
    case pushProgress(app: String, InstallProgress, to: [UInt64])
}
