/*
Abstract:
What the queue finds when it starts again: downloads that had handed over their file before the service stopped, and files their owners have not taken.
*/

import Foundation

extension DownloadQueue {
    /// The finished files an earlier run of the service left in the hand-over folders for owners that
    /// had not taken them; call it before ``start()``, so they are held before any transfer resumes.
    ///
    /// Downloads that had handed over their file before their end was recorded are finished first,
    /// so their files are found too. Before any transfer runs, a file whose download has not finished
    /// is a stale one (the download hands over a file of its own) and is deleted; once transfers run,
    /// such a file could be one handed over a moment ago, whose end is about to be recorded.
    /// - Throws: A store error.
    func filesLeftForTheirOwners() throws -> [FinishedFile] {
        assert(running.isEmpty, "files are looked for before the queue starts any transfer")
        try finishHandedOverDownloads()
        return UndeliveredFiles.scan(paths: staging.paths, store: store)
    }

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
