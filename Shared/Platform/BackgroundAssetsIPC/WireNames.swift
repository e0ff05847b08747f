/*
Abstract:
The names every message case and field has on the wire, written out so a Swift rename cannot change the protocol.
*/

// Each enum below is the synthesized `Codable` key set made explicit (SE-0295): the case names
// are the Swift names, the raw values are the bytes on the wire. Renaming a Swift case without
// its key here no longer compiles; changing a raw value changes the golden frames under
// Tests/BackgroundAssetsIPCTests/GoldenFrames, which fail until `WireProtocol.version` is raised
// (the rule is in ``WireProtocol``). Cases without a payload need no per-case keys: they are
// always encoded as an empty object.

extension ServerMessage {
    /// The two kinds of message the service sends.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case response = "response"
        case event = "event"
    }

    enum ResponseCodingKeys: String, CodingKey {
        case id = "id"
        case response = "response"
    }
    enum EventCodingKeys: String, CodingKey { case _0 = "event" }
}

extension ServerResponse {
    /// The name of each response on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case hello = "hello"
        case done = "done"
        case download = "download"
        case downloads = "downloads"
        case exclusiveControlGranted = "exclusiveControlGranted"
        case status = "status"
        case app = "app"
        case settings = "settings"
        case failure = "failure"
        case taskRequests = "taskRequests"
        case urlSessionTask = "urlSessionTask"
        case resumeData = "resumeData"
        case urlSessionIdentifiers = "urlSessionIdentifiers"
        case notificationAuthorization = "notificationAuthorization"
        case pendingNotifications = "pendingNotifications"
        case deliveredNotifications = "deliveredNotifications"
        case assetPackManifest = "assetPackManifest"
        case assetPackRequest = "assetPackRequest"
        case assetPackChanges = "assetPackChanges"
        case notificationBadges = "notificationBadges"
        case notificationCategories = "notificationCategories"
        case downloadStatuses = "downloadStatuses"
        case currentDownloadsPage = "currentDownloadsPage"
    }

    // The answer to `hello` and `failure` keep their version-2 shape, like `hello` itself.
    enum HelloCodingKeys: String, CodingKey { case _0 = "_0" }
    enum DownloadCodingKeys: String, CodingKey { case _0 = "download" }
    enum DownloadsCodingKeys: String, CodingKey { case _0 = "downloads" }
    enum StatusCodingKeys: String, CodingKey { case _0 = "status" }
    enum AppCodingKeys: String, CodingKey { case _0 = "app" }
    enum SettingsCodingKeys: String, CodingKey { case _0 = "settings" }
    enum FailureCodingKeys: String, CodingKey { case _0 = "_0" }
    enum TaskRequestsCodingKeys: String, CodingKey { case _0 = "requests" }
    enum UrlSessionTaskCodingKeys: String, CodingKey { case _0 = "task" }
    enum ResumeDataCodingKeys: String, CodingKey { case _0 = "resumeData" }
    enum UrlSessionIdentifiersCodingKeys: String, CodingKey { case _0 = "sessions" }
    enum NotificationAuthorizationCodingKeys: String, CodingKey { case _0 = "status" }
    enum PendingNotificationsCodingKeys: String, CodingKey { case _0 = "requests" }
    enum DeliveredNotificationsCodingKeys: String, CodingKey { case _0 = "notifications" }
    enum AssetPackManifestCodingKeys: String, CodingKey { case _0 = "manifest" }
    enum AssetPackRequestCodingKeys: String, CodingKey { case outcome = "outcome" }
    enum AssetPackChangesCodingKeys: String, CodingKey { case _0 = "changes" }
    enum NotificationBadgesCodingKeys: String, CodingKey { case _0 = "badges" }
    enum NotificationCategoriesCodingKeys: String, CodingKey { case _0 = "categories" }
    enum DownloadStatusesCodingKeys: String, CodingKey { case _0 = "page" }
    enum CurrentDownloadsPageCodingKeys: String, CodingKey { case _0 = "page" }
}

extension ServerEvent {
    /// The name of each event on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case didBegin = "didBegin"
        case didPause = "didPause"
        case didWriteBytes = "didWriteBytes"
        case didReceiveChallenge = "didReceiveChallenge"
        case failed = "failed"
        case finished = "finished"
        case installProgress = "installProgress"
        case extensionCall = "extensionCall"
        case launchTask = "launchTask"
        case expireTask = "expireTask"
        case urlSessionEvent = "urlSessionEvent"
        case urlSessionDetached = "urlSessionDetached"
        case notificationWillPresent = "notificationWillPresent"
        case assetPackStatus = "assetPackStatus"
        case notificationResponse = "notificationResponse"
    }

    enum DidBeginCodingKeys: String, CodingKey { case download = "download" }
    enum DidPauseCodingKeys: String, CodingKey { case download = "download" }
    enum DidWriteBytesCodingKeys: String, CodingKey {
        case download = "download"
        case bytesWritten = "bytesWritten"
        case totalBytesWritten = "totalBytesWritten"
        case totalBytesExpectedToWrite = "totalBytesExpectedToWrite"
    }
    enum DidReceiveChallengeCodingKeys: String, CodingKey {
        case deliveryID = "deliveryID"
        case download = "download"
        case challenge = "challenge"
    }
    enum FailedCodingKeys: String, CodingKey {
        case download = "download"
        case failure = "failure"
    }
    enum FinishedCodingKeys: String, CodingKey {
        case deliveryID = "deliveryID"
        case download = "download"
        case filePath = "filePath"
    }
    enum InstallProgressCodingKeys: String, CodingKey {
        case bundleIdentifier = "bundleIdentifier"
        case progress = "progress"
    }
    enum ExtensionCallCodingKeys: String, CodingKey {
        case callID = "callID"
        case call = "call"
    }
    enum LaunchTaskCodingKeys: String, CodingKey {
        case taskID = "taskID"
        case request = "request"
    }
    enum ExpireTaskCodingKeys: String, CodingKey { case taskID = "taskID" }
    enum UrlSessionEventCodingKeys: String, CodingKey {
        case session = "session"
        case event = "event"
    }
    enum UrlSessionDetachedCodingKeys: String, CodingKey { case session = "session" }
    enum NotificationResponseCodingKeys: String, CodingKey {
        case responseID = "responseID"
        case response = "response"
    }
    enum NotificationWillPresentCodingKeys: String, CodingKey {
        case presentationID = "presentationID"
        case notification = "notification"
    }
    enum AssetPackStatusCodingKeys: String, CodingKey { case _0 = "event" }
}

extension BackgroundSessionEvent {
    /// The name of each background-session event on the wire.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case attached = "attached"
        case resumed = "resumed"
        case updated = "updated"
        case wroteData = "wroteData"
        case finishedDownloading = "finishedDownloading"
        case completed = "completed"
        case challenge = "challenge"
        case waitingEventsDelivered = "waitingEventsDelivered"
        case sentBodyData = "sentBodyData"
        case receivedData = "receivedData"
    }

    enum AttachedCodingKeys: String, CodingKey { case tasks = "tasks" }
    enum ResumedCodingKeys: String, CodingKey {
        case taskIdentifier = "taskIdentifier"
        case offset = "offset"
        case expectedTotalBytes = "expectedTotalBytes"
    }
    enum UpdatedCodingKeys: String, CodingKey { case _0 = "task" }
    enum WroteDataCodingKeys: String, CodingKey {
        case taskIdentifier = "taskIdentifier"
        case bytesWritten = "bytesWritten"
        case totalBytesWritten = "totalBytesWritten"
        case totalBytesExpectedToWrite = "totalBytesExpectedToWrite"
    }
    enum FinishedDownloadingCodingKeys: String, CodingKey {
        case taskIdentifier = "taskIdentifier"
        case file = "file"
        case response = "response"
    }
    enum CompletedCodingKeys: String, CodingKey { case _0 = "task" }
    enum ChallengeCodingKeys: String, CodingKey {
        case taskIdentifier = "taskIdentifier"
        case challengeID = "challengeID"
        case _2 = "challenge"
    }
    enum SentBodyDataCodingKeys: String, CodingKey {
        case taskIdentifier = "taskIdentifier"
        case bytesSent = "bytesSent"
        case totalBytesSent = "totalBytesSent"
        case totalBytesExpectedToSend = "totalBytesExpectedToSend"
    }
    enum ReceivedDataCodingKeys: String, CodingKey {
        case taskIdentifier = "taskIdentifier"
        case data = "data"
    }
}

extension BackgroundTaskCommand {
    /// The name of each change to a task on the wire.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case resume = "resume"
        case suspend = "suspend"
        case cancel = "cancel"
        case cancelProducingResumeData = "cancelProducingResumeData"
        case describe = "describe"
    }

    enum ResumeCodingKeys: String, CodingKey {
        case earliestBeginDate = "earliestBeginDate"
        case countOfBytesClientExpectsToReceive = "countOfBytesClientExpectsToReceive"
    }
    enum DescribeCodingKeys: String, CodingKey { case _0 = "taskDescription" }
}

extension ExtensionCall {
    /// The name of each extension entry point on the wire.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case downloads = "downloads"
        case finished = "finished"
        case failed = "failed"
        case challenge = "challenge"
        case willTerminate = "willTerminate"
        case shouldDownload = "shouldDownload"
    }

    enum DownloadsCodingKeys: String, CodingKey {
        case request = "request"
        case manifestPath = "manifestPath"
        case restrictedDownloadSizeRemaining = "restrictedDownloadSizeRemaining"
        case restrictedEssentialDownloadSizeRemaining = "restrictedEssentialDownloadSizeRemaining"
    }
    enum FinishedCodingKeys: String, CodingKey {
        case download = "download"
        case filePath = "filePath"
    }
    enum FailedCodingKeys: String, CodingKey {
        case download = "download"
        case failure = "failure"
    }
    enum ChallengeCodingKeys: String, CodingKey {
        case download = "download"
        case challenge = "challenge"
    }
    enum ShouldDownloadCodingKeys: String, CodingKey {
        case manifestPath = "manifestPath"
        case packIDs = "packIDs"
    }
}

extension ExtensionCallResult {
    /// The name of each kind of answer an extension entry point gives on the wire.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case downloads = "downloads"
        case challengeAnswer = "challengeAnswer"
        case done = "done"
        case assetPackSelection = "assetPackSelection"
        case notManagedExtension = "notManagedExtension"
    }

    enum DownloadsCodingKeys: String, CodingKey { case _0 = "downloads" }
    enum ChallengeAnswerCodingKeys: String, CodingKey { case _0 = "answer" }
    enum AssetPackSelectionCodingKeys: String, CodingKey { case accepted = "accepted" }
    enum NotManagedExtensionCodingKeys: String, CodingKey { case typeName = "typeName" }
}

extension ClientMessage {
    /// The fields of every request frame.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id = "id"
        case request = "request"
    }
}

extension Hello {
    /// The fields of `hello`, the one request every version of the protocol must be able to read.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case protocolVersion = "protocolVersion"
        case bundleIdentifier = "bundleIdentifier"
        case role = "role"
        case processIdentifier = "processIdentifier"
    }
}

extension HelloReply {
    /// The fields of the answer to `hello`.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case protocolVersion = "protocolVersion"
        case processIdentifier = "processIdentifier"
        case deviceRoot = "deviceRoot"
    }
}
