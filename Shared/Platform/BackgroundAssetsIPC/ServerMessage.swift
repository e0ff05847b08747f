/*
Abstract:
What the service sends to a client: responses to its requests, and events pushed at any time.
*/

import Foundation

/// One message from the service to a client.
public enum ServerMessage: Codable, Sendable, Equatable {
    /// The answer to the request with the same id.
    case response(id: UInt64, response: ServerResponse)
    /// Something happened to one of the app's downloads.
    case event(ServerEvent)
}

/// The service's answer to a ``ClientRequest``.
public enum ServerResponse: Codable, Sendable, Equatable {
    /// The answer to `hello`: the service accepted the connection.
    case hello(HelloReply)
    /// The request succeeded and has nothing to return.
    case done
    /// The download as the service now holds it (answer to `schedule` and `startForeground`).
    case download(DownloadDescriptor)
    /// The app's downloads that have not ended (answer to `fetchCurrentDownloads`).
    case downloads([DownloadDescriptor])
    /// The caller now holds the app's exclusive control.
    case exclusiveControlGranted
    /// The service's state and every download (answer to `fetchStatus`).
    case status(ServiceStatus)
    /// An installed app (answer to `install`, `uninstall`, `simulate` and `awaitLaunchable`).
    case app(AppStatus)
    /// The device settings after the change (answer to `updateSettings`).
    case settings(DeviceSettings)
    /// The app's pending Background Tasks requests (answer to `fetchPendingTaskRequests`).
    case taskRequests([TaskRequestDescriptor])
    /// The request failed.
    case failure(WireFailure)
    /// A task of a background session as the service holds it (answer to `makeURLSessionTask` and
    /// `makeURLSessionTaskFromResumeData`).
    case urlSessionTask(BackgroundTaskSnapshot)
    /// The resume data of a task cancelled with `cancelProducingResumeData`, when its transfer can continue.
    case resumeData(Data?)
    /// The identifiers of the app's sessions whose events wait (answer to `fetchURLSessionsAwaitingEvents`).
    case urlSessionIdentifiers([String])
    /// The app's notification authorization (answer to the two authorization requests).
    case notificationAuthorization(NotificationAuthorizationStatus)
    /// The app's pending notification requests.
    case pendingNotifications([NotificationRequestDescriptor])
    /// Delivered notifications, oldest first.
    case deliveredNotifications([DeliveredNotificationRecord])

    // Managed asset packs.
    /// The app's latest asset-pack manifest (answer to `fetchAssetPackManifest`).
    case assetPackManifest(AssetPackManifestReply)
    /// What became of a pack request (answer to `requestAssetPack`).
    case assetPackRequest(outcome: AssetPackRequestOutcome)
    /// The packs a request concerned (answer to `removeAssetPack`, `checkAssetPackUpdates`,
    /// `fetchDownloadingAssetPacks` and `purgeAssetPacks`).
    case assetPackChanges(AssetPackChanges)
    /// The badges apps show, by app (answer to `fetchNotificationBadges`); an app without one is left out.
    case notificationBadges([NotificationBadge])
    /// The app's notification categories (answer to `fetchNotificationCategories`).
    case notificationCategories([NotificationCategoryDescriptor])
    /// A page of every app's downloads (answer to `fetchDownloadStatuses`).
    case downloadStatuses(DownloadStatusPage)
    /// A page of the app's current downloads (answer to `downloads.fetchCurrentDownloadsPage`).
    case currentDownloadsPage(CurrentDownloadsPage)
}

/// The service's answer to ``Hello``.
public struct HelloReply: Codable, Sendable, Equatable {
    /// The protocol version the service speaks.
    public var protocolVersion: Int
    /// The service's process id.
    public var processIdentifier: Int32
    /// The device root the service runs in, so a client can confirm it reached the right one.
    public var deviceRoot: String
    /// Something every client should know, such as transfers paused after repeated crashes; `nil` when all is well.
    public var notice: String?

    /// Creates a reply.
    /// - Parameters:
    ///   - protocolVersion: The protocol version the service speaks.
    ///   - processIdentifier: The service's process id.
    ///   - deviceRoot: The device root the service runs in.
    public init(protocolVersion: Int = WireProtocol.version, processIdentifier: Int32, deviceRoot: String) {
        self.protocolVersion = protocolVersion
        self.processIdentifier = processIdentifier
        self.deviceRoot = deviceRoot
    }
}

/// An event the service pushes: download events to every connection of the app that set a delegate,
/// install progress to connections waiting for an install, and entry-point calls to a launched extension.
public enum ServerEvent: Codable, Sendable, Equatable {
    /// The download started transferring.
    case didBegin(download: DownloadDescriptor)
    /// The download stopped transferring without ending, for example while it is promoted.
    case didPause(download: DownloadDescriptor)
    /// The download wrote bytes to disk; totals never go down between two events.
    case didWriteBytes(
        download: DownloadDescriptor, bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    )
    /// The server asked for authentication; the client answers with `answerChallenge` and this delivery id.
    case didReceiveChallenge(deliveryID: UInt64, download: DownloadDescriptor, challenge: ChallengeDescriptor)
    /// The download ended with an error.
    case failed(download: DownloadDescriptor, failure: WireFailure)
    /// The download ended; the file stays at `filePath` until the client sends `acknowledgeDelivery`.
    case finished(deliveryID: UInt64, download: DownloadDescriptor, filePath: String)
    /// An install advanced: the app's install progress, sent to connections waiting in
    /// `awaitLaunchable`. Only the progress: an install of many packs sends dozens of these, and the
    /// app's whole status (every pack's) is `fetchStatus`'s answer.
    case installProgress(bundleIdentifier: String, progress: InstallProgress)
    /// Run an extension entry point and answer with `extensionCallReturned` (to a launched extension only).
    case extensionCall(callID: UInt64, call: ExtensionCall)
    /// Run the launch handler for the request's identifier; answer with `taskCompleted` and this task id.
    case launchTask(taskID: UInt64, request: TaskRequestDescriptor)
    /// The task's time is nearly up: run its expiration handler.
    case expireTask(taskID: UInt64)
    /// Something happened in a background session this connection has.
    case urlSessionEvent(session: String, event: BackgroundSessionEvent)
    /// Another process made the session, or it was invalidated: this connection no longer has it.
    case urlSessionDetached(session: String)
    /// A notification arrived while the app runs: answer with `answerNotificationPresentation`.
    case notificationWillPresent(presentationID: UInt64, notification: DeliveredNotificationDescriptor)

    // Managed asset packs.
    /// One of the app's asset packs changed; sent to the app's connections that sent `watchAssetPacks`.
    case assetPackStatus(AssetPackStatusEvent)
    /// A person answered one of the app's notifications: call the delegate's `didReceive`, then
    /// answer with `answerNotificationResponse`.
    case notificationResponse(responseID: UInt64, response: NotificationResponseDescriptor)
}
