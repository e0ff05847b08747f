/*
Abstract:
The hand-over folders opened while the queue records one batch of transfer ends, each opened once for the whole batch.
*/

import BackgroundAssetsIPC
import Foundation

/// The hand-over folders of one batch of transfer ends, each opened once, link by link
/// (``LinkRefusingFolder``), however many of the batch's files go into it.
///
/// Opening a container's folder component by component is as much work as the rename that
/// follows, and the files that end together mostly go to the same app group. The folders live
/// only as long as the batch: an uninstall, or a folder an app replaced by a link, is seen by the
/// next batch, as it was by the next file.
struct HandOverFolders: ~Copyable {
    /// Whose hand-over folder: an app group's, or a background session's.
    enum Owner: Hashable {
        case appGroup(String)
        case backgroundSession(app: String, appGroup: String)
    }

    private var opened: [Owner: (folder: URL, descriptor: Int32)] = [:]

    init() {}

    deinit {
        for entry in opened.values { close(entry.descriptor) }
    }

    /// The folder of `owner`, opened (and made, when missing) beneath `root` on its first use in
    /// this batch.
    /// - Parameters:
    ///   - owner: Whose folder it is.
    ///   - root: The device root, which the folder must be inside.
    ///   - locate: Where the folder is, or throws when the owner cannot have one; asked only on first use.
    /// - Returns: The folder and its open descriptor, which stays open until the batch ends.
    /// - Throws: A local ``TransferError``: `ELOOP` for a link on the way, `EIO` when the folder cannot be opened.
    mutating func open(
        _ owner: Owner, under root: URL, locate: () throws(TransferError) -> URL
    ) throws(TransferError) -> (folder: URL, descriptor: Int32) {
        if let known = opened[owner] { return known }
        let folder = try locate()
        // The folder is inside a container its app can change: opened component by component, so a
        // link planted there (a container's Library/Caches leading to /etc) is refused, not followed.
        let descriptor: Int32
        do {
            descriptor = try LinkRefusingFolder.open(folder, under: root, creating: true)
        } catch {
            throw TransferError(.local, .localFile(errno: error.isLink ? ELOOP : EIO), "could not move the finished file: \(error)")
        }
        opened[owner] = (folder, descriptor)
        return (folder, descriptor)
    }
}
