/*
Abstract:
The host's record of one app's running extension: its process, connection, and the calls it owes.
*/

import BackgroundAssetsIPC
import Foundation

/// What the service does once an extension call returns, or when it never will (the process died).
enum ExtensionCallPurpose: Sendable, Equatable {
    /// `downloads(for:...)`: schedule what it returns; the manifest copy is deleted afterwards.
    case contentRequest(ContentRequestKind, manifest: URL)
    /// `finished`: the handed-over file is deleted afterwards unless the extension moved it.
    case delivery(file: URL, rowID: Int64)
    /// `didReceive`: the answer goes to the waiting transfer (default handling if none comes).
    case challenge(rowID: Int64)
    /// `failed`, or `extensionWillTerminate()`: nothing to do afterwards.
    case notice
}

/// One call waiting to be sent, or running.
struct ExtensionCallRecord: Sendable, Equatable {
    var call: ExtensionCall
    var purpose: ExtensionCallPurpose
    /// Whether the install ends once this call returns (or never will): the last call of an
    /// essential phase's batch, so the essential files are in place before the app can launch
    /// and the app's other downloads start only after the extension has seen every outcome.
    var completesInstall = false
}

/// One app's extension process as the host tracks it.
struct ExtensionRun: Sendable {
    /// Why the extension is being stopped, when the host decided to stop it.
    enum Ending: Sendable, Equatable {
        /// It was asked to terminate after its work.
        case finished
        /// It was killed over a limit; the text says which.
        case killed(String)
    }

    /// The process.
    let process: ExtensionProcess
    /// When it was launched, for the cold-start figure and the trace.
    let launchedAt: Date
    /// Its connection, once it checked in: the host sends it its calls there.
    var connection: ClientConnection?
    /// Calls not sent yet, in order.
    var pending = ExtensionCallQueue()
    /// The call it is running, with its id and when it was sent.
    var running: (id: UInt64, record: ExtensionCallRecord, sentAt: Date)?
    /// The timer that kills the process if the running call overruns.
    var deadline: ServiceActivities.Activity?
    /// The activity that samples the process's resident memory.
    var memoryWatch: ServiceActivities.Activity?
    /// The timer that sends `extensionWillTerminate()` once the extension has been idle briefly.
    var idleTimer: ServiceActivities.Activity?
    /// Whether `extensionWillTerminate()` was sent.
    var isTerminating = false
    /// Why the host is stopping it, if it is.
    var ending: Ending?

    init(process: ExtensionProcess, launchedAt: Date) {
        self.process = process
        self.launchedAt = launchedAt
    }

    /// Whether the extension is doing or owes work other than terminating.
    var hasWork: Bool { running != nil || !pending.isEmpty }
}
