/*
Abstract:
The names every request family, request and field has on the wire, written out so a Swift rename cannot change the protocol.
*/

// As in WireNames.swift: each enum is the synthesized `Codable` key set made explicit (SE-0295),
// the raw values are the bytes on the wire, and changing one changes the golden frames.

extension ClientRequest {
    /// The name of `hello` and of each family on the wire: a request frame's `request` object has
    /// one of these keys, and a family's value is the request itself (ClientRequest+Coding.swift).
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case hello = "hello"
        case core = "core"
        case downloads = "downloads"
        case assetPacks = "assetPacks"
        case tasks = "tasks"
        case urlSessions = "urlSessions"
        case notifications = "notifications"
        case tool = "tool"
    }

    // `hello` keeps the shape version 2 gave it, so a client of any version can introduce itself
    // and be told, in a `failure` it can read, that it speaks another version.
    enum HelloCodingKeys: String, CodingKey { case _0 = "_0" }
}

extension ClientRequest.Core {
    /// The name of each request of the family on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case fetchStatus = "fetchStatus"
        case fetchDownloadStatuses = "fetchDownloadStatuses"
        case awaitLaunchable = "awaitLaunchable"
        case extensionCheckIn = "extensionCheckIn"
        case extensionCallReturned = "extensionCallReturned"
        case extensionCallReturnedPart = "extensionCallReturnedPart"
    }

    enum FetchDownloadStatusesCodingKeys: String, CodingKey { case after = "after" }
    enum AwaitLaunchableCodingKeys: String, CodingKey {
        case bundleIdentifier = "bundleIdentifier"
        case recordLaunch = "recordLaunch"
    }
    enum ExtensionCallReturnedCodingKeys: String, CodingKey {
        case callID = "callID"
        case result = "result"
    }
    enum ExtensionCallReturnedPartCodingKeys: String, CodingKey {
        case callID = "callID"
        case downloads = "downloads"
    }
}

extension ClientRequest.Downloads {
    /// The name of each request of the family on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case setDelegate = "setDelegate"
        case schedule = "schedule"
        case startForeground = "startForeground"
        case cancel = "cancel"
        case fetchCurrentDownloads = "fetchCurrentDownloads"
        case fetchCurrentDownloadsPage = "fetchCurrentDownloadsPage"
        case acquireExclusiveControl = "acquireExclusiveControl"
        case releaseExclusiveControl = "releaseExclusiveControl"
        case answerChallenge = "answerChallenge"
        case acknowledgeDelivery = "acknowledgeDelivery"
    }

    enum SetDelegateCodingKeys: String, CodingKey { case isSet = "isSet" }
    enum ScheduleCodingKeys: String, CodingKey { case download = "download" }
    enum StartForegroundCodingKeys: String, CodingKey { case download = "download" }
    enum CancelCodingKeys: String, CodingKey { case download = "download" }
    enum FetchCurrentDownloadsPageCodingKeys: String, CodingKey { case after = "after" }
    enum AcquireExclusiveControlCodingKeys: String, CodingKey { case deadline = "deadline" }
    enum AnswerChallengeCodingKeys: String, CodingKey {
        case deliveryID = "deliveryID"
        case answer = "answer"
    }
    enum AcknowledgeDeliveryCodingKeys: String, CodingKey { case deliveryID = "deliveryID" }
}

extension ClientRequest.AssetPacks {
    /// The name of each request of the family on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case fetchAssetPackManifest = "fetchAssetPackManifest"
        case requestAssetPack = "requestAssetPack"
        case removeAssetPack = "removeAssetPack"
        case checkAssetPackUpdates = "checkAssetPackUpdates"
        case fetchDownloadingAssetPacks = "fetchDownloadingAssetPacks"
        case watchAssetPacks = "watchAssetPacks"
    }

    enum RequestAssetPackCodingKeys: String, CodingKey {
        case packID = "packID"
        case version = "version"
    }
    enum RemoveAssetPackCodingKeys: String, CodingKey { case packID = "packID" }
}

extension ClientRequest.Tasks {
    /// The name of each request of the family on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case submitTaskRequest = "submitTaskRequest"
        case cancelTaskRequests = "cancelTaskRequests"
        case fetchPendingTaskRequests = "fetchPendingTaskRequests"
        case registerTaskHandler = "registerTaskHandler"
        case taskCompleted = "taskCompleted"
        case reportTaskProgress = "reportTaskProgress"
    }

    enum SubmitTaskRequestCodingKeys: String, CodingKey { case _0 = "request" }
    enum CancelTaskRequestsCodingKeys: String, CodingKey { case identifier = "identifier" }
    enum RegisterTaskHandlerCodingKeys: String, CodingKey { case identifier = "identifier" }
    enum TaskCompletedCodingKeys: String, CodingKey {
        case taskID = "taskID"
        case success = "success"
    }
    enum ReportTaskProgressCodingKeys: String, CodingKey {
        case taskID = "taskID"
        case progress = "progress"
    }
}

extension ClientRequest.URLSessions {
    /// The name of each request of the family on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case attachURLSession = "attachURLSession"
        case makeURLSessionTask = "makeURLSessionTask"
        case makeURLSessionTaskFromResumeData = "makeURLSessionTaskFromResumeData"
        case changeURLSessionTask = "changeURLSessionTask"
        case urlSessionFileHandled = "urlSessionFileHandled"
        case fetchURLSessionsAwaitingEvents = "fetchURLSessionsAwaitingEvents"
        case urlSessionEventsHandled = "urlSessionEventsHandled"
        case invalidateURLSession = "invalidateURLSession"
    }

    enum AttachURLSessionCodingKeys: String, CodingKey { case settings = "settings" }
    enum MakeURLSessionTaskCodingKeys: String, CodingKey {
        case session = "session"
        case request = "request"
    }
    enum MakeURLSessionTaskFromResumeDataCodingKeys: String, CodingKey {
        case session = "session"
        case resumeData = "resumeData"
    }
    enum ChangeURLSessionTaskCodingKeys: String, CodingKey {
        case session = "session"
        case taskIdentifier = "taskIdentifier"
        case command = "command"
    }
    enum UrlSessionFileHandledCodingKeys: String, CodingKey {
        case session = "session"
        case taskIdentifier = "taskIdentifier"
    }
    enum UrlSessionEventsHandledCodingKeys: String, CodingKey { case session = "session" }
    enum InvalidateURLSessionCodingKeys: String, CodingKey {
        case session = "session"
        case cancellingTasks = "cancellingTasks"
    }
}

extension ClientRequest.Notifications {
    /// The name of each request of the family on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case requestNotificationAuthorization = "requestNotificationAuthorization"
        case fetchNotificationAuthorization = "fetchNotificationAuthorization"
        case addNotification = "addNotification"
        case fetchPendingNotifications = "fetchPendingNotifications"
        case fetchDeliveredNotifications = "fetchDeliveredNotifications"
        case removeNotifications = "removeNotifications"
        case setNotificationPresenter = "setNotificationPresenter"
        case answerNotificationPresentation = "answerNotificationPresentation"
        case setNotificationBadgeCount = "setNotificationBadgeCount"
        case fetchNotificationBadges = "fetchNotificationBadges"
        case setNotificationCategories = "setNotificationCategories"
        case fetchNotificationCategories = "fetchNotificationCategories"
        case answerNotificationResponse = "answerNotificationResponse"
    }

    enum RequestNotificationAuthorizationCodingKeys: String, CodingKey { case options = "options" }
    enum AddNotificationCodingKeys: String, CodingKey { case _0 = "request" }
    enum FetchDeliveredNotificationsCodingKeys: String, CodingKey {
        case bundleIdentifier = "bundleIdentifier"
        case after = "after"
    }
    enum RemoveNotificationsCodingKeys: String, CodingKey {
        case _0 = "list"
        case identifiers = "identifiers"
    }
    enum SetNotificationPresenterCodingKeys: String, CodingKey { case isSet = "isSet" }
    enum AnswerNotificationPresentationCodingKeys: String, CodingKey {
        case presentationID = "presentationID"
        case options = "options"
    }
    enum SetNotificationBadgeCountCodingKeys: String, CodingKey { case count = "count" }
    enum FetchNotificationBadgesCodingKeys: String, CodingKey { case bundleIdentifier = "bundleIdentifier" }
    enum SetNotificationCategoriesCodingKeys: String, CodingKey { case _0 = "categories" }
    enum AnswerNotificationResponseCodingKeys: String, CodingKey { case responseID = "responseID" }
}

extension ClientRequest.Tool {
    /// The name of each request of the family on the wire, the table in ``WireProtocol``.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case install = "install"
        case uninstall = "uninstall"
        case simulate = "simulate"
        case updateSettings = "updateSettings"
        case simulateTask = "simulateTask"
        case resetDeviceClock = "resetDeviceClock"
        case forceQuit = "forceQuit"
        case purgeAssetPacks = "purgeAssetPacks"
        case respondToNotification = "respondToNotification"
    }

    enum InstallCodingKeys: String, CodingKey { case _0 = "request" }
    enum UninstallCodingKeys: String, CodingKey { case bundleIdentifier = "bundleIdentifier" }
    enum SimulateCodingKeys: String, CodingKey {
        case _0 = "kind"
        case bundleIdentifier = "bundleIdentifier"
    }
    enum UpdateSettingsCodingKeys: String, CodingKey { case _0 = "change" }
    enum SimulateTaskCodingKeys: String, CodingKey {
        case _0 = "action"
        case identifier = "identifier"
        case bundleIdentifier = "bundleIdentifier"
    }
    enum ForceQuitCodingKeys: String, CodingKey { case bundleIdentifier = "bundleIdentifier" }
    enum PurgeAssetPacksCodingKeys: String, CodingKey {
        case bundleIdentifier = "bundleIdentifier"
        case bytes = "bytes"
    }
    enum RespondToNotificationCodingKeys: String, CodingKey {
        case bundleIdentifier = "bundleIdentifier"
        case identifier = "identifier"
        case actionIdentifier = "actionIdentifier"
        case userText = "userText"
    }
}
