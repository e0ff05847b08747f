/*
Abstract:
Where partial downloads live, and how a finished one is handed over inside the app group container.
*/

import BackgroundAssetsIPC
import Foundation

/// The service's `staging/` folder and the hand-over folder in each app group container.
///
/// Staging files are named by the queue's row id (``DevicePaths/stagingFile(forDownloadRow:)``).
/// A finished file moves (a rename, since the device root is
/// one file system) to `Library/Caches/com.apple.BackgroundAssets/BAFile-<uuid>.tmp` in the app
/// group container, as on Apple platforms, where the app or extension can move it again cheaply.
struct StagingArea: Sendable {
    let paths: DevicePaths

    /// The staging file of a download.
    func partFile(forRow id: Int64) -> URL {
        paths.stagingFile(forDownloadRow: id)
    }

    /// The path of ``partFile(forRow:)``, for the system calls that take one.
    func partFilePath(forRow id: Int64) -> String {
        paths.stagingFilePath(forDownloadRow: id)
    }

    /// Moves a finished staging file to where its download is handed over: a Background Assets
    /// download into its app group's hand-over folder, a background session's task into the
    /// session's folder (``BackgroundSessionFiles/handOverDirectory(for:appGroup:)``).
    /// - Parameters:
    ///   - row: The download, as launched.
    ///   - folders: The folders opened for the batch of ends this one belongs to.
    /// - Returns: The file's new location.
    /// - Throws: A local ``TransferError`` when the folder is invalid or the move fails.
    func handOver(_ row: DownloadRow, folders: inout HandOverFolders) throws(TransferError) -> URL {
        let group = row.descriptor.applicationGroupIdentifier
        guard row.descriptor.kind == .backgroundSession else {
            return try handOver(rowID: row.id, toAppGroup: group, folders: &folders)
        }
        let opened = try folders.open(.backgroundSession(app: row.bundleIdentifier, appGroup: group), under: paths.root) {
            () throws(TransferError) in
            guard let folder = sessionHandOverFolder(of: row) else {
                throw TransferError(.local, .localFile(errno: EINVAL), "the app \(row.bundleIdentifier.debugDescription) or its app group \(group.debugDescription) has no folder")
            }
            return folder
        }
        // The session's record keeps track of the file from here: no second name is needed.
        return try move(rowID: row.id, into: opened, as: Self.sessionHandOverName(rowID: row.id), keepingSecondName: false)
    }

    /// Moves a finished staging file into the app group's hand-over folder, in a batch of its own:
    /// the folder is opened for this file alone. The queue hands its ends over in batches
    /// (``handOver(_:folders:)``); this is the same move for one file by itself.
    /// - Returns: The file's new location.
    /// - Throws: A local ``TransferError`` when the app group is invalid or the move fails.
    func handOver(rowID id: Int64, toAppGroup group: String) throws(TransferError) -> URL {
        var folders = HandOverFolders()
        return try handOver(rowID: id, toAppGroup: group, folders: &folders)
    }

    private func handOver(rowID id: Int64, toAppGroup group: String, folders: inout HandOverFolders) throws(TransferError) -> URL {
        let opened = try folders.open(.appGroup(group), under: paths.root) { () throws(TransferError) in
            guard let folder = handOverFolder(ofAppGroup: group) else {
                throw TransferError(.local, .localFile(errno: EINVAL), "the app group \(group.debugDescription) has no container")
            }
            return folder
        }
        return try move(rowID: id, into: opened, as: Self.handOverName(rowID: id), keepingSecondName: true)
    }

    private func move(
        rowID id: Int64, into opened: (folder: URL, descriptor: Int32), as name: String, keepingSecondName: Bool
    ) throws(TransferError) -> URL {
        let source = partFilePath(forRow: id)
        guard renameat(AT_FDCWD, source, opened.descriptor, name) == 0 else {
            let code = errno
            // ENOENT says the staging file is gone, which starts the download over, unless it is
            // still there: then the folder opened for the batch was removed since (an uninstall).
            if code == ENOENT, access(source, F_OK) == 0 {
                throw TransferError(.local, .localFile(errno: EIO), "could not move the finished file into \(opened.folder.path): the folder was removed")
            }
            throw TransferError(.local, .localFile(errno: code), "could not move the finished file into \(opened.folder.path): \(errnoText(code))")
        }
        // The second name the service keeps until the file's delivery ends: the app or the extension
        // is told to move the file, and one stopped after moving it but before putting it in place
        // would leave the bytes where nobody looks. The kept name (a hard link: no copy, no space)
        // lets the next service hand the same bytes over again.
        if keepingSecondName { _ = linkat(opened.descriptor, name, opened.descriptor, name + Self.heldSuffix, 0) }
        return opened.folder.appending(path: name, directoryHint: .notDirectory)
    }

    /// The file a download handed over, if one is there.
    func handedOverFile(of row: DownloadRow) -> URL? {
        guard row.descriptor.kind == .backgroundSession else {
            return handedOverFile(ofRow: row.id, appGroup: row.descriptor.applicationGroupIdentifier)
        }
        return sessionHandOverFolder(of: row).flatMap { handedOverFile(ofRow: row.id, in: $0) }
    }

    /// The file a download handed over into its app group, if one is there.
    func handedOverFile(ofRow id: Int64, appGroup group: String) -> URL? {
        handOverFolder(ofAppGroup: group).flatMap { handedOverFile(ofRow: id, in: $0) }
    }

    private func handedOverFile(ofRow id: Int64, in folder: URL) -> URL? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.first { Self.rowID(ofHandOverFile: $0) == id }
            .map { folder.appending(path: $0, directoryHint: .notDirectory) }
    }

    private func sessionHandOverFolder(of row: DownloadRow) -> URL? {
        let group = row.descriptor.applicationGroupIdentifier
        return BackgroundSessionFiles(paths: paths).handOverDirectory(for: row.bundleIdentifier, appGroup: group.isEmpty ? nil : group)
    }

    /// The folder of an app group's container where finished files are handed over.
    static let handOverFolder = "Library/Caches/com.apple.BackgroundAssets"

    /// The hand-over folder of an app group, or `nil` for a group that cannot have a container.
    func handOverFolder(ofAppGroup group: String) -> URL? {
        paths.container(forAppGroup: group)?.appending(path: Self.handOverFolder, directoryHint: .isDirectory)
    }

    /// `BAFile-<row>-<uuid>.tmp`: unique, and naming its download, so a service that stopped before
    /// the file was taken can tell whose it is when it starts again.
    static func handOverName(rowID id: Int64) -> String {
        "BAFile-\(id)-\(UUID.random().uuidString).tmp"
    }

    /// `CFNetworkDownload_<row>-<uuid>.tmp`: Apple's name for a background session's file, with its download's row.
    static func sessionHandOverName(rowID id: Int64) -> String {
        "\(BackgroundSessionFiles.handOverPrefix)\(id)-\(UUID.random().uuidString).tmp"
    }

    /// The download a hand-over file belongs to, from its name; `nil` for any other file.
    static func rowID(ofHandOverFile name: String) -> Int64? {
        guard let prefix = ["BAFile-", BackgroundSessionFiles.handOverPrefix].first(where: name.hasPrefix), name.hasSuffix(".tmp") else {
            return nil
        }
        let parts = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return Int64(parts[0])
    }

    /// The kept second name of a handed-over file: its name with `.held` added.
    static func keptName(of file: URL) -> URL {
        URL(fileURLWithPath: keptPath(of: file.path), isDirectory: false)
    }

    /// The path of ``keptName(of:)`` for a handed-over file's path.
    static func keptPath(of path: String) -> String {
        path + heldSuffix
    }

    static let heldSuffix = ".held"

    /// Makes sure a handed-over file has its kept second name (the hand-over made one, unless a
    /// restart lost it), so a kill before its owner takes it leaves it for the next service.
    static func keepSecondName(of file: URL) {
        let path = file.path
        _ = link(path, keptPath(of: path))
    }

    /// Ends a hand-over: the file (unless it was moved) and its kept name are deleted.
    static func release(handedOver file: URL) {
        let path = file.path
        unlink(path)
        unlink(keptPath(of: path))
    }

    /// Deletes a download's staging file, if any.
    func discard(rowID id: Int64) {
        unlink(partFilePath(forRow: id))
    }
}
