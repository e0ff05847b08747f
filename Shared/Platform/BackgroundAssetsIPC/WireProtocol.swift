/*
Abstract:
The version and limits of the protocol the system service and its clients speak over the socket.
*/

/// The protocol between `backgroundassetsd` and the processes that use Background Assets.
///
/// A client connects to `run/backgroundassetsd.sock` under the device root and exchanges frames:
/// a 4-byte big-endian payload length followed by that many bytes of UTF-8 JSON (``FrameEncoder``,
/// ``FrameDecoder``). The client sends ``ClientMessage`` values, each a request with an id; the
/// service answers every request with exactly one ``ServerMessage/response(id:response:)`` carrying
/// the same id, and pushes ``ServerMessage/event(_:)`` values at any time. The first request on a
/// connection must be ``ClientRequest/hello(_:)``; anything else first closes the connection.
///
/// Requests come in families, one per subsystem: a request frame's `request` is an object with one
/// key, the family, whose value is the request (`{"downloads":{"schedule":{"download":…}}}`), and
/// the service answers each family in one place. `tool` holds everything only the debug tool may
/// ask, refused from any other role before it is read further. `hello` stands alone, in the shape
/// every version gave it.
///
/// | client request | the service's response | meaning |
/// | --- | --- | --- |
/// | `hello` | `hello` | protocol version, the caller's bundle id and role (app, extension, tool) |
/// | `core.fetchStatus` | `status` | the service, every app and the first page of downloads (the debug tool's `status`) |
/// | `core.fetchDownloadStatuses` | `downloadStatuses` | the next page of `status`'s downloads, after the cursor the last answer gave |
/// | `core.awaitLaunchable` | `app` | wait while the app installs (the launch is the hello of a process running the installed app; `recordLaunch` counts only where claims are trusted) |
/// | `core.extensionCheckIn` | `done` | the extension the service launched is ready for calls (only that process may) |
/// | `core.extensionCallReturned` | `done` | an entry point returned, with what it returned |
/// | `core.extensionCallReturnedPart` | `done` | part of the downloads an entry point returned, before the `extensionCallReturned` with the rest |
/// | `downloads.setDelegate` | `done` | whether this connection wants download events |
/// | `downloads.schedule` | `download` | queue a background download; answered once it is durable |
/// | `downloads.startForeground` | `download` | start now in the foreground, or promote a queued or running one |
/// | `downloads.cancel` | `done` | remove a queued or running download |
/// | `downloads.fetchCurrentDownloads` | `downloads` | the app's downloads that have not ended, or whose file is still being handed over |
/// | `downloads.fetchCurrentDownloadsPage` | `currentDownloadsPage` | a page of what `fetchCurrentDownloads` lists, after the cursor the last page gave |
/// | `downloads.acquireExclusiveControl` | `exclusiveControlGranted` | wait (in arrival order, after a finished file in the extension's hands; optional deadline) for the app's lock |
/// | `downloads.releaseExclusiveControl` | `done` | give the lock back (closing the connection does too) |
/// | `downloads.answerChallenge` | `done` | the delegate's disposition for a `didReceiveChallenge` event |
/// | `downloads.acknowledgeDelivery` | `done` | a `finished` callback returned; its file may be deleted |
/// | `assetPacks.fetchAssetPackManifest` | `assetPackManifest` | the app's asset-pack download manifest, fetched now from its `BAManifestURL` |
/// | `assetPacks.requestAssetPack` | `assetPackRequest` | download and install a pack version (scheduled, joined, or already installed) |
/// | `assetPacks.removeAssetPack` | `assetPackChanges` | remove a pack from the device, cancelling its download |
/// | `assetPacks.checkAssetPackUpdates` | `assetPackChanges` | fetch the manifest, update outdated packs, remove obsolete ones |
/// | `assetPacks.fetchDownloadingAssetPacks` | `assetPackChanges` | the app's packs whose download is under way |
/// | `assetPacks.watchAssetPacks` | `done` | this connection receives the app's `assetPackStatus` events |
/// | `tasks.submitTaskRequest` | `done` | store a Background Tasks request, replacing one with the same identifier (app only) |
/// | `tasks.cancelTaskRequests` | `done` | cancel one pending task request, or all of the app's |
/// | `tasks.fetchPendingTaskRequests` | `taskRequests` | the app's task requests that have not run |
/// | `tasks.registerTaskHandler` | `done` | this connection runs the tasks with that identifier (app only) |
/// | `tasks.taskCompleted` | `done` | a task handed over with `launchTask` ended |
/// | `tasks.reportTaskProgress` | `done` | a running continued-processing task's progress, title and subtitle (app only) |
/// | `urlSessions.attachURLSession` | `done` | this connection has the app's background session; its `urlSessionEvent`s follow (app or extension) |
/// | `urlSessions.makeURLSessionTask` | `urlSessionTask` | record a new, suspended download task in one of the app's sessions |
/// | `urlSessions.makeURLSessionTaskFromResumeData` | `urlSessionTask` | record a suspended task that continues from resume data |
/// | `urlSessions.changeURLSessionTask` | `resumeData` | resume, suspend, cancel (with resume data) or describe a task |
/// | `urlSessions.urlSessionFileHandled` | `done` | `didFinishDownloadingTo` returned; the system forgets the file |
/// | `urlSessions.fetchURLSessionsAwaitingEvents` | `urlSessionIdentifiers` | the app's sessions whose events wait, those it was launched for first |
/// | `urlSessions.urlSessionEventsHandled` | `done` | the app called the completion handler of `handleEventsForBackgroundURLSession` |
/// | `urlSessions.invalidateURLSession` | `done` | end a session, cancelling its tasks or once they have ended |
/// | `notifications.requestNotificationAuthorization` | `notificationAuthorization` | ask once whether the app may notify; later calls get the recorded answer |
/// | `notifications.fetchNotificationAuthorization` | `notificationAuthorization` | the app's notification authorization |
/// | `notifications.addNotification` | `done` | schedule a local notification (authorized apps only) |
/// | `notifications.fetchPendingNotifications` | `pendingNotifications` | the app's notification requests not yet delivered |
/// | `notifications.fetchDeliveredNotifications` | `deliveredNotifications` | delivered notifications after a place in the list (the debug tool may name any app) |
/// | `notifications.removeNotifications` | `done` | remove pending or delivered notifications |
/// | `notifications.setNotificationPresenter` | `done` | this connection is asked how to present notifications while the app runs |
/// | `notifications.answerNotificationPresentation` | `done` | the delegate's presentation options for a `notificationWillPresent` event |
/// | `notifications.setNotificationBadgeCount` | `done` | the number the app's icon shows (`setBadgeCount`); 0 removes the badge |
/// | `notifications.fetchNotificationBadges` | `notificationBadges` | the badges apps show: the caller's app's, or with the debug tool one app's or every app's |
/// | `notifications.setNotificationCategories` | `done` | replace the app's notification categories and their actions |
/// | `notifications.fetchNotificationCategories` | `notificationCategories` | the app's notification categories |
/// | `notifications.answerNotificationResponse` | `done` | the app's delegate finished handling a `notificationResponse` event |
/// | `tool.install` | `app` | validate two Info.plists, register the app, start its install |
/// | `tool.uninstall` | `app` | remove an app, its downloads and its container |
/// | `tool.simulate` | `app` | send a content request now and reset the runtime budget |
/// | `tool.updateSettings` | `settings` | low-power mode, background app refresh, in-app content |
/// | `tool.simulateTask` | `done` | launch a pending task or expire a running one now |
/// | `tool.resetDeviceClock` | `status` | put the device's clock back to real time, recorded dates with it |
/// | `tool.forceQuit` | `app` | a person force-quits the app: its processes end, its background transfers are cancelled |
/// | `tool.purgeAssetPacks` | `assetPackChanges` | remove packs as storage pressure would, on-demand first, never essential |
/// | `tool.respondToNotification` | `done` | a person answers an app's delivered notification with an action |
///
/// Any request may instead be answered with `failure`, which carries an error domain, code and
/// message (``WireFailure``); Background Assets errors use `BAErrorDomain` and Apple's codes. A
/// `hello` with another protocol version is answered with `failure` (`callerConnectionNotAccepted`,
/// 55) and the connection is closed; a frame or message that does not decode closes the connection
/// without an answer.
///
/// | event | sent when |
/// | --- | --- |
/// | `didBegin` | a download starts transferring |
/// | `didPause` | a download stops transferring without ending (promotion, or a retry after an error) |
/// | `didWriteBytes` | progress, rate-limited and monotonic |
/// | `didReceiveChallenge` | the server asked for authentication; answer with `answerChallenge` |
/// | `failed` | a download ended with an error |
/// | `finished` | a download ended; the file is at the given path until `acknowledgeDelivery` |
/// | `installProgress` | an install advanced (to connections in `awaitLaunchable`) |
/// | `extensionCall` | run an entry point (to the extension the service launched) |
/// | `launchTask` | run a Background Tasks launch handler (to the connection that registered it) |
/// | `expireTask` | a running task's time is nearly up: run its expiration handler |
/// | `urlSessionEvent` | something happened in a background session this connection has (progress, a file, a task's end) |
/// | `urlSessionDetached` | another process made the session, or it was invalidated |
/// | `notificationWillPresent` | a notification arrived while the app runs; answer with `answerNotificationPresentation` |
/// | `assetPackStatus` | one of the app's asset packs began, paused, progressed, finished, failed or was removed (to connections that sent `watchAssetPacks`) |
/// | `notificationResponse` | a person answered one of the app's notifications; answer with `answerNotificationResponse` |
///
/// The names above are the bytes on the wire, written out in `WireNames.swift` apart from the Swift
/// names, and one frame of every case is recorded under `Tests/BackgroundAssetsIPCTests/GoldenFrames`.
/// The rule for ``version``: a change that alters any recorded frame is a new protocol; raise the
/// version and record its frames. `hello`, its answer and `failure` never change shape, so a client
/// of any version can be told it speaks another one.
///
/// The service speaks one version and refuses a `hello` of any other; it does not decode older
/// requests. The service, its clients' frameworks and the debug tool are built together from one
/// package, so a client of another version is a stale build, and rebuilding is its fix; decoding
/// every old version would keep a second protocol alive in the service for clients that do not
/// exist. The frames of earlier versions stay recorded beside the current ones, as the record of
/// what those versions sent, and a test holds that a recorded older `hello` is still read and refused.
public enum WireProtocol {
    /// The protocol version this build speaks; the service refuses a `hello` with another one.
    ///
    /// Version 6 put requests in families by subsystem (`core`, `downloads`, `assetPacks`, `tasks`,
    /// `urlSessions`, `notifications`, `tool`); version 5 made `installProgress` carry the install's
    /// progress, not the app's whole status; version 4 added Background Tasks and two device settings (external power, network);
    /// version 3 gave every unlabeled payload a name instead of `_0`; version 2 took Swift's
    /// synthesized names as they were.
    public static let version = 6

    /// The largest payload a frame may carry, in bytes.
    ///
    /// Lists that grow with the queue travel in pages well under it (`status`,
    /// `fetchCurrentDownloadsPage`) or in parts (`extensionCallReturnedPart`), so no count of
    /// downloads needs a larger frame; small enough that one misbehaving peer cannot make the other
    /// allocate without bound.
    public static let maximumFrameSize = 16 * 1024 * 1024

    /// The largest frame the service reads from a client that has not said `hello` yet: a hello is
    /// a few hundred bytes, and a stranger must not make the service allocate 16 MiB.
    public static let maximumHelloFrameSize = 64 * 1024

    /// The number of bytes in front of every payload that give its length.
    public static let frameHeaderSize = 4
}
