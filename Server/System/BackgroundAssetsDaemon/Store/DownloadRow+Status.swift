/*
Abstract:
How a queued download is reported to clients: its snapshot and, for the debug tool, its bookkeeping.
*/

import BackgroundAssetsIPC

extension DownloadRow {
    /// The download as `fetchCurrentDownloads` and events report it.
    public var snapshot: DownloadDescriptor { descriptor }

    /// The download as `backgroundassets-debug status` shows it, its secrets redacted (credentials
    /// in request headers, tokens in URL queries).
    public var status: DownloadStatus {
        var shown = descriptor
        shown.headers = SecretRedaction.redacting(headers: descriptor.headers)
        shown.url = SecretRedaction.redacting(text: descriptor.url)
        var error = lastError
        if let message = lastError?.message { error?.message = SecretRedaction.redacting(text: message) }
        // A parked download's next attempt is the far-future date that keeps it out of the run
        // order, not a time anyone should read: it waits for its host instead.
        let isParked = state == .waiting && nextAttemptAt >= DownloadStore.parkedUntilReachable
        return DownloadStatus(
            bundleIdentifier: bundleIdentifier, download: shown, isForeground: isForeground,
            bytesWritten: bytesDurable,
            bytesExpected: expectedLength ?? (descriptor.fileSize > 0 ? Int64(descriptor.fileSize) : nil),
            attempts: attempts, lastError: error,
            nextAttemptAt: state == .waiting && !isParked && nextAttemptAt > updatedAt ? nextAttemptAt : nil,
            waitsUntilReachable: isParked ? true : nil)
    }
}
