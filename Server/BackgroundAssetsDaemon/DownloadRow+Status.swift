/*
Abstract:
How a queued download is reported to clients: its snapshot and, for the debug tool, its bookkeeping.
*/

import BackgroundAssetsIPC

extension DownloadRow {
    /// The download as `fetchCurrentDownloads` and events report it.
    public var snapshot: DownloadDescriptor { descriptor }

    /// The download as `backgroundassets-debug status` shows it.
    public var status: DownloadStatus {
        DownloadStatus(
            bundleIdentifier: bundleIdentifier, download: descriptor, isForeground: isForeground,
            bytesWritten: bytesDurable,
            bytesExpected: expectedLength ?? (descriptor.fileSize > 0 ? Int64(descriptor.fileSize) : nil),
            attempts: attempts, lastError: lastError,
            nextAttemptAt: state == .waiting && nextAttemptAt > updatedAt ? nextAttemptAt : nil)
    }
}
