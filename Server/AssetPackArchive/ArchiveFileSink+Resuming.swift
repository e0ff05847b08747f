/*
Abstract:
Where an archive's file sink stands, saved at a checkpoint, and a sink that resumes there after a restart of the service.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension ArchiveFileSink {
    /// Where a sink stands: its folder, the file being written and how many of its bytes are in.
    public struct Position: Codable, Sendable, Equatable {
        /// The sink's folder, by its name in the staging folder.
        public var folderName: String
        /// The header's index of the file being written, or -1 between files.
        var fileIndex: Int
        /// The bytes of that file written so far.
        var written: Int64
        /// The files written whole.
        var filesEnded: Int
    }

    /// Where the sink stands now, or `nil` once it stopped (its bytes cannot be continued).
    public var position: Position? {
        guard problem == nil else { return nil }
        return Position(folderName: folder.lastPathComponent, fileIndex: output >= 0 ? outputIndex : -1,
                        written: output >= 0 ? written : 0, filesEnded: filesEnded)
    }

    /// The writes since the last call, for a checkpoint to sync before it saves ``position``: the
    /// files ended since, the file being written (its bytes so far), and the folders that gained an entry.
    public func takeUnsyncedWrites() -> ArchiveSinkWrites {
        var descriptors = endedFiles
        endedFiles = []
        var failedCopy = false
        // A second descriptor: the transfer goes on writing to, and may close, its own.
        if output >= 0 {
            let copy = dup(output)
            if copy >= 0 { descriptors.append(copy) } else { failedCopy = true }
        }
        defer { changedFolders = [] }
        return ArchiveSinkWrites(descriptors: descriptors, folders: changedFolders.sorted(), failedCopy: failedCopy)
    }

    /// A sink that goes on at a saved position, in a folder an earlier sink wrote.
    ///
    /// The folder must hold every file the position counts as written, at its size; the file being
    /// written is cut back to the bytes the position counts (a restart within a boot keeps the ones
    /// that arrived after the checkpoint, which the download fetches again), and any later file is
    /// deleted, so each is created again as the bytes come.
    /// - Parameters:
    ///   - position: What ``position`` returned at the checkpoint.
    ///   - staging: The staging folder the sink's folder is in.
    ///   - header: The archive's header, whose files the sink writes.
    ///   - expected: The pack version the download is for.
    /// - Throws: ``AssetPackArchiveError`` (`.unresumable`) naming what does not fit.
    public convenience init(resuming position: Position, in staging: URL, header: AssetPackArchiveHeader,
                            expecting expected: AssetPackDownloadIdentifier?) throws(AssetPackArchiveError) {
        let name = position.folderName
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\0") else {
            throw AssetPackArchiveError(.unresumable, path: staging.path, problem: "the saved folder name \(name.debugDescription) is not one a sink makes")
        }
        self.init(folder: staging.appending(path: name, directoryHint: .isDirectory), expecting: expected)
        let path = folder.path
        func refuse(_ problem: String) -> AssetPackArchiveError {
            AssetPackArchiveError(.unresumable, path: path, problem: problem)
        }
        if let expected, header.assetPackID != expected.packID || header.version != expected.version {
            throw refuse("holds \(header.assetPackID) version \(header.version), not \(expected.packID) version \(expected.version)")
        }
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { throw refuse("is not there any more") }
        let files = header.files
        let current = position.fileIndex
        guard position.filesEnded >= 0, position.filesEnded <= files.count, position.written >= 0,
              current == -1 || (current == position.filesEnded && current < files.count && position.written <= files[current].size)
        else { throw refuse("the saved position (file \(current), \(position.written) bytes, \(position.filesEnded) ended) does not fit the header") }
        self.header = header
        for directory in header.directories { try folders.make(directory, archive: path) }
        for (index, file) in files.enumerated().prefix(position.filesEnded) {
            guard lstat(folder.appending(path: file.path).path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
                  Int64(status.st_size) == file.size else {
                throw refuse("file \(index), \(file.path), is not there whole")
            }
        }
        // Files the sink reached after the checkpoint: each is created again when its bytes come.
        for file in files.dropFirst(position.filesEnded + (current >= 0 ? 1 : 0)) {
            let later = folder.appending(path: file.path).path
            guard lstat(later, &status) == 0 else { continue }
            guard (status.st_mode & S_IFMT) != S_IFDIR, unlink(later) == 0 else { throw refuse("\(file.path) cannot be deleted (\(errnoText()))") }
        }
        filesEnded = position.filesEnded
        guard current >= 0 else { return }
        try reopen(current, at: position.written, refuse: refuse)
    }

    /// Opens the file being written again, cut back to the bytes counted, to write on after them.
    private func reopen(_ index: Int, at length: Int64, refuse: (String) -> AssetPackArchiveError) throws(AssetPackArchiveError) {
        guard let file = header?.files[index] else { return }
        let descriptor = open(folder.appending(path: file.path).path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw refuse("\(file.path) cannot be opened (\(errnoText()))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int64(status.st_size) >= length,
              ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) == off_t(length) else {
            close(descriptor)
            throw refuse("\(file.path) does not hold the \(length) bytes counted")
        }
        output = descriptor
        outputIndex = index
        written = length
        writeBackStart = length
    }
}

/// The writes of an archive's sink since a checkpoint, synced before the checkpoint is recorded.
public final class ArchiveSinkWrites: Sendable {
    private let descriptors: [Int32]
    private let folders: [String]
    private let failedCopy: Bool

    init(descriptors: [Int32], folders: [String], failedCopy: Bool) {
        self.descriptors = descriptors.filter { $0 >= 0 }
        self.folders = folders
        self.failedCopy = failedCopy
    }

    deinit { for descriptor in descriptors { close(descriptor) } }

    /// Waits until the files' bytes and the folders' entries are on the disk.
    /// - Throws: ``AssetPackArchiveError`` (`.io`) naming what could not be synced.
    public func sync() throws(AssetPackArchiveError) {
        guard !failedCopy else {
            throw AssetPackArchiveError(.io, path: folders.first ?? "", problem: "the file being written could not be opened to sync it (\(errnoText())).")
        }
        for descriptor in descriptors where fdatasync(descriptor) != 0 {
            throw AssetPackArchiveError(.io, path: folders.first ?? "", problem: "a file written cannot be synced (\(errnoText())).")
        }
        for folder in folders {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { if descriptor >= 0 { close(descriptor) } }
            guard descriptor >= 0, fsync(descriptor) == 0 else {
                throw AssetPackArchiveError(.io, path: folder, problem: "cannot be synced (\(errnoText())).")
            }
        }
    }
}
