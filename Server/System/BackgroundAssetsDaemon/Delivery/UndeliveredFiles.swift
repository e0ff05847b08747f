/*
Abstract:
Finished files an earlier run of the service handed over but nobody took, found again when it starts.
*/

import BackgroundAssetsIPC
import Foundation

/// The hand-overs a stopped service left behind, found again when the next one starts.
///
/// A download that finished before the service died (a crash, a kill) has its file in the app
/// group's hand-over folder and its row finished, but its owner may not have taken the file: it was
/// held for a reconnecting delegate, offered to one that had not returned, or on its way to the
/// extension. The next service finds such files by their names, which carry their download's row,
/// before it resumes any transfer, and holds each again (``DeliveryState/found(_:)``).
enum UndeliveredFiles {
    /// Looks through every app group container for hand-over files whose download finished.
    ///
    /// A file whose row no longer exists (the app was uninstalled, the queue reset) is deleted: the
    /// hand-over folder is the service's own, and nobody could ever be given that file. So is one
    /// whose download has not finished, which will hand over a file of its own.
    /// - Parameters:
    ///   - paths: The device root.
    ///   - store: The download store, read once per file.
    /// - Returns: The files found, by app group, then by name.
    static func scan(paths: DevicePaths, store: DownloadStore) -> [FinishedFile] {
        var found: [FinishedFile] = []
        let manager = FileManager.default
        let staging = StagingArea(paths: paths)
        let groups = (try? manager.contentsOfDirectory(atPath: paths.containersDirectory.path)) ?? []
        for group in groups.sorted() {
            guard let folder = staging.handOverFolder(ofAppGroup: group) else { continue }
            var names = Set((try? manager.contentsOfDirectory(atPath: folder.path)) ?? [])
            // A kept name alone: the file was moved by a process stopped before it put it in place.
            // Its bytes go out again under their first name.
            for held in names where held.hasSuffix(StagingArea.heldSuffix) {
                let name = String(held.dropLast(StagingArea.heldSuffix.count))
                guard !names.contains(name) else { continue }
                if link(folder.appending(path: held).path, folder.appending(path: name).path) == 0 { names.insert(name) }
            }
            for name in names.sorted() {
                guard let rowID = StagingArea.rowID(ofHandOverFile: name) else { continue }
                let file = folder.appending(path: name, directoryHint: .notDirectory)
                guard let row = try? store.download(id: rowID) else {
                    StagingArea.release(handedOver: file)
                    continue
                }
                guard row.descriptor.applicationGroupIdentifier == group else { continue }
                guard row.state == .finished else {
                    // The service stopped (or the machine lost power) between the hand-over and the
                    // record of the download's end: the download runs again and hands over a new file.
                    StagingArea.release(handedOver: file)
                    continue
                }
                found.append(FinishedFile(row: row, file: file))
            }
        }
        return found
    }
}
