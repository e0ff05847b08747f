/*
Abstract:
The requests about the service itself and the processes it launches: its status, an app's launch, the extension's calls.
*/

extension ClientRequest {
    /// Requests about the service and the processes it launches, open to every role.
    public enum Core: Codable, Sendable, Equatable {
        /// Asks for the service's state, every app and the first page of every download (the debug tool's `status`).
        case fetchStatus
        /// Asks for the next page of ``ServiceStatus/downloads``: the downloads after the cursor a `status`
        /// answer or the previous page gave (``ServiceStatus/moreDownloadsAfter``).
        case fetchDownloadStatuses(after: Int64)
        /// Waits until an app is launchable, with `installProgress` events meanwhile; `nil` means the
        /// caller's app. With `recordLaunch` (the app's launch gate) the answer also records a launch.
        case awaitLaunchable(bundleIdentifier: String?, recordLaunch: Bool)
        /// The extension the service launched says it is ready for calls (extension only).
        case extensionCheckIn
        /// An extension entry point returned (extension only).
        case extensionCallReturned(callID: UInt64, result: ExtensionCallResult)
        /// Part of what `downloads(for:manifestURL:extensionInfo:)` returned, sent before the
        /// `extensionCallReturned` of the same call that carries the rest: an answer of many downloads
        /// goes in parts so that no frame holds all of them (extension only).
        case extensionCallReturnedPart(callID: UInt64, downloads: [DownloadDescriptor])
    }
}
