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
        return DownloadStatus(
            bundleIdentifier: bundleIdentifier, download: shown, isForeground: isForeground,
            bytesWritten: bytesDurable,
            bytesExpected: expectedLength ?? (descriptor.fileSize > 0 ? Int64(descriptor.fileSize) : nil),
            attempts: attempts, lastError: error,
            nextAttemptAt: state == .waiting && nextAttemptAt > updatedAt ? nextAttemptAt : nil)
    }
}
