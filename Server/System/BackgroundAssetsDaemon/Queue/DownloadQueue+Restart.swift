/*
Abstract:
What the queue finds when it starts again: downloads that had handed over their file before the service stopped.
*/

import Foundation

extension DownloadQueue {
    /// Marks as finished the downloads whose file was handed over just before the service stopped,
    /// before it could record their end: the hand-over is a rename made only once the whole file
    /// was received and synced, so the file is whole, and the service delivers it again rather
    /// than fetch it a second time.
    func finishHandedOverDownloads() throws {
        for row in try store.interruptedDownloads() {
            guard let file = staging.handedOverFile(of: row) else { continue }
            var status = stat()
            guard stat(file.path, &status) == 0 else { continue }
            let length = Int64(status.st_size)
            guard row.descriptor.fileSize <= 0 || length == Int64(row.descriptor.fileSize) else { continue }
            try recordFinished(id: row.id, length: length)
            logger.info("Download \(row.bundleIdentifier)/\(row.descriptor.identifier) had handed over its file when the service stopped; it is finished.")
        }
    }
}
