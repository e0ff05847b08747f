/*
Abstract:
Finding the download an app starts in the foreground among its queued ones, and promoting it, in one turn of the queue.
*/

extension DownloadQueue {
    /// What `startForegroundDownload` finds of a download the app may have queued already.
    public enum QueuedForegroundStart: Sendable {
        /// It was waiting or running in the background, and now runs in the foreground.
        case promoted(DownloadRow)
        /// It already runs in the foreground: nothing changed.
        case alreadyForeground(DownloadRow)
        /// It is not queued; `latest` is the latest download with its unique identifier, ended or
        /// not, if there is one.
        case notQueued(latest: DownloadRow?)
    }

    /// Looks up the app's download with an identifier that has not ended and promotes it when it
    /// waits or runs in the background, in one turn of the queue: the app's launch calls this for
    /// every session it lists, and a look-up on the store's reading thread first was one more hop
    /// there and back before each promotion.
    /// - Parameters:
    ///   - app: The app's bundle identifier.
    ///   - identifier: The download's identifier.
    ///   - uniqueIdentifier: The download object's unique identifier, for a download that is not queued.
    ///   - beforePromoting: Runs right before a promotion, before its events (a pause, then a
    ///     begin): where the caller records the request, so the trace reads in order.
    /// - Returns: What was found, and whether it was promoted.
    public func startForegroundIfQueued(
        app: String, identifier: String, uniqueIdentifier: String, beforePromoting: @Sendable () -> Void
    ) throws -> QueuedForegroundStart {
        guard let row = try store.activeDownload(bundleIdentifier: app, identifier: identifier) else {
            return .notQueued(latest: try store.download(uniqueIdentifier: uniqueIdentifier))
        }
        guard !row.isForeground else { return .alreadyForeground(row) }
        beforePromoting()
        return .promoted(try promote(id: row.id))
    }
}
