/*
Abstract:
The background-session host: the sessions' state, their store, their transfers in the queue, and the events to their apps.
*/

import BackgroundAssetsIPC
import Foundation
import SystemLogging

/// Runs every app's background sessions: keeps their records, puts their tasks' transfers in the
/// shared download queue, turns the queue's events into each session's events, sends them to the
/// process that has the session or keeps them for the next one, and asks the service to launch an
/// app for its events.
///
/// The behaviour of background sessions, as ``BackgroundSessionState`` is their state and
/// ``BackgroundSessionPolicy`` their rules. The service owns the host and calls it on its own
/// executor (each `async` method runs on the caller's actor). The host's timers and upload readers
/// run there too and call it back directly; what only the service can do (launch the app in the
/// background, end that launch) goes to it as a ``Notice``.
final class BackgroundSessionHost {
    /// What the host asks of the service: launching an app and ending that launch are the service's to do.
    enum Notice: Sendable {
        /// Launch the installed app in the background for a session's events.
        case launchApp(app: String, session: String)
        /// The app called the completion handler of every session it was launched for (or ran out
        /// of time): end its background launch if nothing else keeps it.
        case endBackgroundLaunchIfIdle(app: String)
    }

    /// A task of a session.
    struct TaskReference: Hashable, Sendable {
        var key: BackgroundSessionKey
        var task: Int
    }

    /// A transfer the app resumed that waits for the device (network, a discretionary session's conditions).
    struct WaitingTransfer: Sendable {
        var request: BackgroundTaskRequest
        var notBefore: Date?
        var discretionary: Bool
        var resumingFrom: Data?
        var reason: String
    }

    /// Why a request was refused, in a sentence that says what to do.
    struct Refusal: Error, Sendable {
        let message: String
    }

    /// How long a relaunched app has to call its completion handler, as on Apple platforms.
    static let eventsHandlingLimit: Duration = .seconds(30)
    /// How long a kept partial file is kept for resume data nobody used.
    static let partialFileLifetime: TimeInterval = 7 * 86_400

    var state = BackgroundSessionState()
    let files: BackgroundSessionFiles
    let store: BackgroundSessionStore
    let queue: DownloadQueue
    let reader: DownloadStoreReader
    let trace: ServiceTrace
    let activities: ServiceActivities
    let notify: @Sendable (Notice) -> Void
    let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")
    /// The device settings, for the conditions transfers wait for.
    var settings: DeviceSettings
    /// The connections that have sessions, by id.
    var connections: [UInt64: ClientConnection] = [:]
    /// Each queued transfer's row.
    var rows: [TaskReference: Int64] = [:]
    /// Transfers waiting for the device before they join the queue.
    var waiting: [TaskReference: WaitingTransfer] = [:]
    /// Resume data a cancellation produced, until the request that asked for it is answered.
    var producedResumeData: [TaskReference: Data] = [:]
    /// Apps launched for events, with the sessions whose completion handler they have not called.
    var launchedForEvents: [String: Set<String>] = [:]
    var handlingLimits: [String: ServiceActivities.Activity] = [:]
    var expiryTimer: ServiceActivities.Activity?
    var progressSamples = ProgressTraceSampler()
    /// Transfers whose attempt began and has not reported bytes yet.
    var startingAttempts: Set<TaskReference> = []
    /// The running upload attempts, by task; an attempt's events count only while it is the task's.
    var uploads: [TaskReference: UploadAttempt] = [:]
    /// Uploads that wait to start (their `earliestBeginDate`) or to try again after a failure.
    var uploadTimers: [TaskReference: ServiceActivities.Activity] = [:]
    /// The number of the next attempt of uploads that wait to try again.
    var retryingUploads: [TaskReference: Int] = [:]
    /// Events sent to a connection whose process had already gone (the write failed), by connection:
    /// they wait for the next process once the service handles the close.
    var undelivered: [UInt64: [BackgroundSessionKey: [BackgroundSessionEvent]]] = [:]

    /// Opens the sessions' store.
    /// - Throws: ``DaemonError`` when the store cannot be opened.
    init(paths: DevicePaths, queue: DownloadQueue, reader: DownloadStoreReader, trace: ServiceTrace,
         activities: ServiceActivities, settings: DeviceSettings, notify: @escaping @Sendable (Notice) -> Void) throws {
        files = BackgroundSessionFiles(paths: paths)
        store = try BackgroundSessionStore(url: files.database)
        self.queue = queue
        self.reader = reader
        self.trace = trace
        self.activities = activities
        self.settings = settings
        self.notify = notify
    }

    var now: Date { activities.wallClock.now }

    /// Every session with tasks or waiting events, for `status`.
    var statuses: [URLSessionStatus] {
        state.sessions.filter { !$0.tasks.isEmpty || !$0.waiting.isEmpty }.map { record in
            var reasons: [String: String] = [:]
            for (reference, transfer) in waiting where reference.key == record.key { reasons["\(reference.task)"] = transfer.reason }
            return URLSessionStatus(
                bundleIdentifier: record.key.bundleIdentifier, settings: record.settings,
                tasks: record.tasks.values.sorted { $0.taskIdentifier < $1.taskIdentifier }, waitingEvents: record.waiting.count,
                isAttached: state.isAttached(record.key), waitReasons: reasons)
        }
    }

    /// Whether the app's background launch must go on: it has not called the completion handler
    /// of every session it was launched for.
    func keepsBackgroundLaunch(of app: String) -> Bool {
        !(launchedForEvents[app] ?? []).isEmpty
    }
}
