/*
Abstract:
Refuses scheduling while the extension answers a content request: the downloads are returned instead.
*/

import BackgroundAssetsIPC

extension BADownloadManager {
    /// Runs `downloads(for:manifestURL:extensionInfo:)`, refusing ``scheduleDownload(_:)`` until it returns.
    ///
    /// Apple's framework prohibits scheduling while that method runs, because everything it wants
    /// scheduled belongs in the set it returns. The service refuses it too; refusing here as well
    /// gives the developer a clear message without a round trip.
    /// - Parameter body: The entry point.
    /// - Returns: What `body` returns.
    func whileAnsweringContentRequest<Result>(_ body: () -> Result) -> Result {
        isAnsweringContentRequest.withLock { $0 = true }
        defer { isAnsweringContentRequest.withLock { $0 = false } }
        return body()
    }

    /// Throws when a download is scheduled while `downloads(for:manifestURL:extensionInfo:)` runs.
    /// - Parameter download: The download being scheduled.
    /// - Throws: ``BAError`` with ``BAError/Code/callFromExtensionNotAllowed``.
    func refuseDuringContentRequest(_ download: BADownload) throws {
        guard isAnsweringContentRequest.withLock({ $0 }) else { return }
        throw BAError(
            .callFromExtensionNotAllowed,
            message: "The download \(download.identifier.debugDescription) cannot be scheduled while "
                + "downloads(for:manifestURL:extensionInfo:) runs. Return it from that method instead; "
                + "the system schedules every download it returns.")
    }
}
