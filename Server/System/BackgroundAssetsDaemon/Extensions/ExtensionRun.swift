/*
Abstract:
One app's running extension as the call lifecycle sees it: its process id, whether it checked in, and the calls it owes.
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

    /// Whether the call may be sent before the call ahead of it returned: a failure notice, whose
    /// return only lets the next call go. An install refusing tens of thousands of downloads sends
    /// one each, and a round trip for each was most of the install's time. A finished file is not
    /// sent ahead: until it is sent, a delegate that connects can still receive it instead.
    var mayBeSentAhead: Bool {
        if case .failed = call { true } else { false }
    }

    /// Whether the call hands the extension a finished file.
    var isDelivery: Bool {
        if case .delivery = purpose { true } else { false }
    }
}

/// One app's extension process as the call lifecycle tracks it: which process, whether it checked
/// in, the calls it owes, and whether it is on its way out. Plain values: the process, its
/// connection and its timers are the host's (``ExtensionHost``).
struct ExtensionRun: Sendable, Equatable {
    /// Why the extension is being stopped, when the lifecycle decided to stop it.
    enum Ending: Sendable, Equatable {
        /// It was asked to terminate after its work.
        case finished
        /// It was killed over a limit; the text says which.
        case killed(String)
    }

    /// The call it is running: its id, what it is, when it began and how long it may run.
    struct RunningCall: Sendable, Equatable {
        var id: UInt64
        var record: ExtensionCallRecord
        /// When it was sent or, sent ahead, when the call before it returned: when the extension,
        /// which runs its calls one at a time, began it.
        var sentAt: Date
        var limit: ExtensionCallLimit
        /// What the parts of its answer it sent before it returned (`extensionCallReturnedPart`) did.
        var parts = ReturnedPartsTally()
    }

    /// A call sent before the call ahead of it returned; its deadline waits until it runs.
    struct SentAheadCall: Sendable, Equatable {
        var id: UInt64
        var record: ExtensionCallRecord
    }

    /// The process's id.
    let pid: Int32
    /// When it was launched, for the cold-start figure.
    let launchedAt: Date
    /// The id of its connection, once it checked in: its calls are sent there.
    var connection: UInt64?
    /// Calls not sent yet, in order.
    var pending = ExtensionCallQueue()
    /// The call it is running: the oldest call sent that has not returned.
    var running: RunningCall?
    /// Calls sent behind the running one before it returned, in order (``ExtensionCallRecord/mayBeSentAhead``):
    /// the extension runs each after the ones before it, and each becomes the running call in turn.
    var sentAhead: [SentAheadCall] = []
    /// Whether a finished file was handed to it and it is not done with it yet: from the call that
    /// hands it over until it lets go of exclusive control with no other file, challenge or content
    /// request owed, or stays idle for the grace without asking for control (``ExclusiveControlArbiter``).
    var hasFileInHand = false
    /// Whether `extensionWillTerminate()` was queued.
    var isTerminating = false
    /// Why the lifecycle is stopping it, if it is.
    var ending: Ending?

    init(pid: Int32, launchedAt: Date) {
        self.pid = pid
        self.launchedAt = launchedAt
    }

    /// Whether the extension is doing or owes work other than terminating.
    var hasWork: Bool { running != nil || !sentAhead.isEmpty || !pending.isEmpty }

    /// Whether a call it runs or owes does more than tell it something: hands it a file, asks it
    /// to answer a challenge or a content request.
    var owesCallsOtherThanNotices: Bool {
        let isNotice = { (record: ExtensionCallRecord) in record.purpose == .notice }
        return running.map { !isNotice($0.record) } == true || sentAhead.contains { !isNotice($0.record) }
            || pending.waiting.contains { !isNotice($0) }
    }
}
