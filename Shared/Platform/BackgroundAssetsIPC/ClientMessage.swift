/*
Abstract:
What a client (the app, its extension, the debug tool) sends to the service: requests with ids.
*/

import Foundation

/// One request from a client, tagged with an id the service echoes in its response.
public struct ClientMessage: Codable, Sendable, Equatable {
    /// The id that pairs this request with its response; unique per connection, chosen by the client.
    public var id: UInt64
    /// What the client asks for.
    public var request: ClientRequest

    /// Creates a message.
    /// - Parameters:
    ///   - id: The id that pairs the request with its response.
    ///   - request: What the client asks for.
    public init(id: UInt64, request: ClientRequest) {
        self.id = id
        self.request = request
    }
}

/// The requests a client can make; see ``WireProtocol`` for the response each one gets.
public enum ClientRequest: Codable, Sendable, Equatable {
    /// Introduces the client; must be the first request on a connection.
    case hello(Hello)
    /// Says whether this connection has a delegate and wants download events.
    case setDelegate(isSet: Bool)
    /// Queues a background download.
    case schedule(download: DownloadDescriptor)
    /// Starts a download in the foreground, promoting it if it is already queued or running.
    case startForeground(download: DownloadDescriptor)
    /// Removes a queued or running download.
    case cancel(download: DownloadDescriptor)
    /// Asks for the app's downloads that have not ended.
    case fetchCurrentDownloads
    /// Waits for the app's exclusive control, giving up at the deadline when there is one.
    case acquireExclusiveControl(deadline: Date?)
    /// Gives exclusive control back.
    case releaseExclusiveControl
    /// Answers a `didReceiveChallenge` event.
    case answerChallenge(deliveryID: UInt64, answer: ChallengeAnswer)
    /// Says a `finished` event's callback returned, so its file can be deleted unless it was moved.
    case acknowledgeDelivery(deliveryID: UInt64)
    /// Asks for the service's state and every download of every app (the debug tool's `status`).
    case fetchStatus
    /// Installs or updates an app from its Info.plists, as the App Store would (debug tool only).
    case install(InstallRequest)
    /// Removes an installed app, its downloads and its container; `nil` means the only app installed (debug tool only).
    case uninstall(bundleIdentifier: String?)
    /// Sends a content request to an app's extension now and resets its runtime budget (debug tool only).
    case simulate(ContentRequestKind, bundleIdentifier: String?)
    /// Changes the device settings and answers with all of them (debug tool only).
    case updateSettings(SettingsChange)
    /// Waits until an app is launchable, with `installProgress` events meanwhile; `nil` means the
    /// caller's app. With `recordLaunch` (the app's launch gate) the answer also records a launch.
    case awaitLaunchable(bundleIdentifier: String?, recordLaunch: Bool)
    /// The extension the service launched says it is ready for calls (extension only).
    case extensionCheckIn
    /// An extension entry point returned (extension only).
    case extensionCallReturned(callID: UInt64, result: ExtensionCallResult)
    /// Stores a Background Tasks request, replacing the app's pending one with the same identifier (app only).
    case submitTaskRequest(TaskRequestDescriptor)
    /// Cancels the app's pending request with this identifier, or all of them when `nil`.
    case cancelTaskRequests(identifier: String?)
    /// Asks for the app's pending Background Tasks requests.
    case fetchPendingTaskRequests
    /// Says this connection has a launch handler for the identifier, so its tasks may run here (app only).
    case registerTaskHandler(identifier: String)
    /// A task handed over with `launchTask` ended (`setTaskCompleted(success:)`).
    case taskCompleted(taskID: UInt64, success: Bool)
    /// Launches or expires an app's pending or running task now (debug tool only).
    case simulateTask(TaskSimulation, identifier: String, bundleIdentifier: String?)
    /// A running continued-processing task's progress, title and subtitle (app only).
    case reportTaskProgress(taskID: UInt64, progress: TaskProgress)
    /// Puts the device's clock back to real time, moving every recorded device date back by as much (debug tool only).
    case resetDeviceClock

    // Background URL sessions.

    /// Makes this connection the one that has the app's session with these settings, creating the
    /// session on first use; its events follow as `urlSessionEvent` (app or extension).
    case attachURLSession(settings: BackgroundSessionSettings)
    /// Records a new, suspended download task in one of the app's sessions.
    case makeURLSessionTask(session: String, request: BackgroundTaskRequest)
    /// Records a suspended task that continues from resume data (`downloadTask(withResumeData:)`).
    case makeURLSessionTaskFromResumeData(session: String, resumeData: Data)
    /// Resumes, suspends, cancels or describes a task.
    case changeURLSessionTask(session: String, taskIdentifier: Int, command: BackgroundTaskCommand)
    /// The delegate returned from `didFinishDownloadingTo`: the system forgets the file.
    case urlSessionFileHandled(session: String, taskIdentifier: Int)
    /// Asks which of the app's sessions have events waiting, the ones it was launched for first.
    case fetchURLSessionsAwaitingEvents
    /// The app called the completion handler of `handleEventsForBackgroundURLSession`.
    case urlSessionEventsHandled(session: String)
    /// Invalidates a session, cancelling its tasks or once they have ended.
    case invalidateURLSession(session: String, cancellingTasks: Bool)
    /// A person force-quits an app: its background transfers are cancelled (debug tool only).
    case forceQuit(bundleIdentifier: String?)

    // Local notifications.

    /// Asks once whether the app may notify; later calls get the recorded answer.
    case requestNotificationAuthorization(options: UInt)
    /// Asks for the app's notification authorization.
    case fetchNotificationAuthorization
    /// Schedules a local notification, replacing the app's pending one with the same identifier.
    case addNotification(NotificationRequestDescriptor)
    /// Asks for the app's pending notification requests.
    case fetchPendingNotifications
    /// Asks for delivered notifications after a place in the list: the caller's app's, or with the
    /// debug tool, one app's or every app's.
    case fetchDeliveredNotifications(bundleIdentifier: String?, after: Int64?)
    /// Removes the app's pending or delivered notifications, all of them when `identifiers` is `nil`.
    case removeNotifications(NotificationList, identifiers: [String]?)
    /// Says whether this connection presents notifications that arrive while the app runs (`willPresent`).
    case setNotificationPresenter(isSet: Bool)
    /// Answers a `notificationWillPresent` event with `UNNotificationPresentationOptions`' raw value.
    case answerNotificationPresentation(presentationID: UInt64, options: UInt)
    // Managed asset packs.
    /// Asks for the app's latest asset-pack download manifest, fetched now from its `BAManifestURL`.
    case fetchAssetPackManifest
    /// Asks the system to download and install a version of one of the app's asset packs.
    case requestAssetPack(packID: String, version: Int)
    /// Removes one of the app's asset packs from the device, cancelling its download if one runs.
    case removeAssetPack(packID: String)
    /// Fetches the manifest, schedules updates of the app's outdated packs and removes obsolete ones.
    case checkAssetPackUpdates
    /// Asks which of the app's asset packs are downloading.
    case fetchDownloadingAssetPacks
    /// Says this connection wants the app's `assetPackStatus` events.
    case watchAssetPacks
    /// Removes asset packs as storage pressure would, on-demand packs first and never essential ones,
    /// until `bytes` are free (all it may, when `nil`); `nil` app means every app (debug tool only).
    case purgeAssetPacks(bundleIdentifier: String?, bytes: Int64?)
    /// Sets the number the app's icon shows (`setBadgeCount`); 0 removes the badge.
    case setNotificationBadgeCount(count: Int)
    /// Asks for the badges apps show: one app's, or every app's (debug tool only).
    case fetchNotificationBadges(bundleIdentifier: String?)
    /// Replaces the app's notification categories (`setNotificationCategories`).
    case setNotificationCategories([NotificationCategoryDescriptor])
    /// Asks for the app's notification categories.
    case fetchNotificationCategories
    /// A person answers an app's delivered notification with an action (debug tool only).
    case respondToNotification(bundleIdentifier: String?, identifier: String, actionIdentifier: String, userText: String?)
    /// The app's delegate finished handling a `notificationResponse` event.
    case answerNotificationResponse(responseID: UInt64)
    /// Asks for the next page of ``ServiceStatus/downloads``: the downloads after the cursor a `status`
    /// answer or the previous page gave (``ServiceStatus/moreDownloadsAfter``).
    case fetchDownloadStatuses(after: Int64)
}

/// What `simulateTask` does, as Apple's debugger commands for Background Tasks do.
public enum TaskSimulation: String, Codable, Sendable, CaseIterable {
    /// Run a pending request now, whatever its earliest begin date (`_simulateLaunchForTaskWithIdentifier`).
    case launch
    /// Run a running task's expiration handler now (`_simulateExpirationForTaskWithIdentifier`).
    case expire
}

/// The first request on every connection: who is calling, and which protocol it speaks.
public struct Hello: Codable, Sendable, Equatable {
    /// The kind of process on the other end of a connection.
    public enum Role: String, Codable, Sendable, CaseIterable {
        /// The app itself.
        case app
        /// The app's downloader extension, which may not start foreground downloads.
        case `extension`
        /// The debug tool, acting on its own behalf or an app's.
        case tool
    }

    /// The protocol version the client speaks, ``WireProtocol/version`` for this build.
    public var protocolVersion: Int
    /// The bundle identifier of the app whose downloads this connection works on.
    public var bundleIdentifier: String
    /// The kind of process calling.
    public var role: Role
    /// The caller's process id, for the trace and for diagnostics.
    public var processIdentifier: Int32

    /// Creates a hello.
    /// - Parameters:
    ///   - protocolVersion: The protocol version the client speaks.
    ///   - bundleIdentifier: The bundle identifier of the app whose downloads the client works on.
    ///   - role: The kind of process calling.
    ///   - processIdentifier: The caller's process id.
    public init(
        protocolVersion: Int = WireProtocol.version,
        bundleIdentifier: String,
        role: Role,
        processIdentifier: Int32
    ) {
        self.protocolVersion = protocolVersion
        self.bundleIdentifier = bundleIdentifier
        self.role = role
        self.processIdentifier = processIdentifier
    }
}
