/*
Abstract:
Copies a checked archive's files into a fresh folder, then makes them durable with one wait for the whole pack.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackArchiveReader {
    /// Writes the pack's folders and files into an empty folder, and syncs them all before returning.
    ///
    /// Check the archive first (``check(_:expecting:)``): this copies bytes, it does not digest
    /// them. Nothing is ever written outside `directory`: the paths were checked when the archive
    /// was opened, and files are created exclusively (`O_EXCL`, `O_NOFOLLOW`) in a folder the
    /// caller just made. Write-back starts as soon as each piece is written, without waiting;
    /// the syncs that wait come at the end, by batches, when most of the bytes are on the disk
    /// already, so the caller can make the folder visible knowing its bytes are there. On an error
    /// the folder is left as it is, for the caller to delete.
    /// - Parameters:
    ///   - directory: An empty folder to write into.
    ///   - progress: Called after each file is written.
    /// - Throws: ``AssetPackArchiveError``: `.truncated` or `.io`.
    public func copyFiles(into directory: URL, progress: (Progress) -> Void = { _ in }) throws(AssetPackArchiveError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var folders = FolderMaker(root: directory)
        for folder in header.directories { try folders.make(folder, archive: path) }
        var unsynced = UnsyncedFiles(archive: path)
        defer { unsynced.closeAll() }
        var offset = Int64(sealedBytes.count)
        var state = Progress(filesDone: 0, fileCount: header.files.count, bytesDone: 0, byteCount: header.installSize)
        for file in header.files {
            let output = try folders.createFile(file.path, archive: path)
            try unsynced.add(output, name: file.path)
            var remaining = file.size
            while remaining > 0 {
                let chunk = Int(min(Int64(buffer.count), remaining))
                let count = try FileDescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<chunk]),
                                                      count: chunk, at: offset, path: path)
                guard count == chunk else {
                    throw AssetPackArchiveError(.truncated, path: path, problem: "ends inside \(file.path); download it again.")
                }
                try write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: output, file: file.path)
                WriteBack.start(output, from: file.size - remaining, count: count)
                remaining -= Int64(count)
                offset += Int64(count)
            }
            state.filesDone += 1
            state.bytesDone += file.size
            progress(state)
        }
        try unsynced.syncAll()
        try folders.syncAll(archive: path)
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to output: Int32, file: String) throws(AssetPackArchiveError) {
        do {
            try FileDescriptorIO.write(output, bytes)
        } catch {
            throw AssetPackArchiveError(.io, path: path, problem: "cannot unpack \(file) (\(error.reason)).")
        }
    }
}

/// Files written but not yet synced, kept open so that one wait covers many of them.
struct UnsyncedFiles {
    /// At most this many stay open: a pack of thousands of files must not run out of descriptors.
    static let batch = 64

    let archive: String
    private var files: [(descriptor: Int32, name: String)] = []

    init(archive: String) {
        self.archive = archive
    }

    /// Keeps a file open until the next sync, syncing the batch first when it is full.
    mutating func add(_ descriptor: Int32, name: String) throws(AssetPackArchiveError) {
        if files.count >= Self.batch {
            do { try syncAll() } catch {
                close(descriptor)
                throw error
            }
        }
        files.append((descriptor, name))
    }

    /// Waits until every file kept is on the disk, then closes them.
    mutating func syncAll() throws(AssetPackArchiveError) {
        defer { closeAll() }
        for file in files where fdatasync(file.descriptor) != 0 {
            throw AssetPackArchiveError(.io, path: archive, problem: "cannot sync \(file.name) (\(errnoText())).")
        }
    }

    mutating func closeAll() {
        for file in files { close(file.descriptor) }
        files = []
    }

}

/// Creates the folders of a pack under an extraction root, each once.
struct FolderMaker {
    let root: URL
    private var made: Set<String> = []

    init(root: URL) {
        self.root = root
    }

    /// Syncs every folder made, and the root, so their entries survive a power cut.
    func syncAll(archive: String) throws(AssetPackArchiveError) {
        for folder in [root.path] + made.map({ root.appending(path: $0).path }) {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0, fsync(descriptor) == 0 else {
                if descriptor >= 0 { close(descriptor) }
                throw AssetPackArchiveError(.io, path: archive, problem: "cannot sync the folder \(folder) (\(errnoText())).")
            }
            close(descriptor)
        }
    }

    /// Creates a new file of the pack, and the folders above it, for writing: exclusively, never
    /// following a link, so nothing is written but a file this unpack made.
    /// - Returns: The file, open for writing.
    mutating func createFile(_ path: String, archive: String) throws(AssetPackArchiveError) -> Int32 {
        try makeParents(of: path, archive: archive)
        let output = open(root.appending(path: path).path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw AssetPackArchiveError(.io, path: archive, problem: "cannot unpack \(path) (\(errnoText())).")
        }
        return output
    }

    /// Creates the folders above a file.
    mutating func makeParents(of path: String, archive: String) throws(AssetPackArchiveError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        try make(String(path[..<slash]), archive: archive)
    }

    /// Creates a folder and its parents.
    mutating func make(_ path: String, archive: String) throws(AssetPackArchiveError) {
        guard !made.contains(path) else { return }
        if let slash = path.lastIndex(of: "/") { try make(String(path[..<slash]), archive: archive) }
        let full = root.appending(path: path).path
        if mkdir(full, 0o755) != 0 {
            var status = stat()
            guard errno == EEXIST, lstat(full, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw AssetPackArchiveError(.io, path: archive, problem: "cannot create the folder \(path) (\(errnoText())).")
            }
        }
        made.insert(path)
    }
}

extension AssetPackArchiveReader {
    /// Syncs a folder whose files were written as the archive arrived (``ArchiveFileSink``), so the
    /// caller can make it visible knowing its bytes are on the disk, as after ``copyFiles(into:progress:)``.
    ///
    /// Check the archive first (``check(_:expecting:)``): the folder holds what arrived, and only
    /// the archive's digests say it is what was published.
    /// - Parameters:
    ///   - directory: The folder the archive's files were written into.
    ///   - progress: Called after each file is synced.
    /// - Throws: ``AssetPackArchiveError`` (`.io`) when a file is missing or cannot be synced.
    public func syncFiles(in directory: URL, progress: (Progress) -> Void = { _ in }) throws(AssetPackArchiveError) {
        var folders = FolderMaker(root: directory)
        var unsynced = UnsyncedFiles(archive: path)
        defer { unsynced.closeAll() }
        var state = Progress(filesDone: 0, fileCount: header.files.count, bytesDone: 0, byteCount: header.installSize)
        for folder in header.directories { try folders.make(folder, archive: path) }
        for file in header.files {
            try folders.makeParents(of: file.path, archive: path)
            let descriptor = open(directory.appending(path: file.path).path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw AssetPackArchiveError(.io, path: path, problem: "cannot open the unpacked \(file.path) (\(errnoText())).")
            }
            try unsynced.add(descriptor, name: file.path)
            state.filesDone += 1
            state.bytesDone += file.size
            progress(state)
        }
        try unsynced.syncAll()
        try folders.syncAll(archive: path)
    }
}
