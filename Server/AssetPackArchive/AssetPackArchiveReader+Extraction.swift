/*
Abstract:
Streams an archive's files out, checking each against its SHA-256, into a fresh folder or nowhere (verification only).
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackArchiveReader {
    /// How far an extraction has come, reported after each file.
    public struct Progress: Sendable, Equatable {
        /// Files written (or verified) so far.
        public var filesDone: Int
        /// Files in the archive.
        public var fileCount: Int
        /// File bytes written so far.
        public var bytesDone: Int64
        /// File bytes in the archive.
        public var byteCount: Int64
    }

    /// Checks every file's bytes against its SHA-256 and, given a folder, writes the pack's tree into it.
    ///
    /// Nothing is ever written outside `directory`: the paths were checked when the archive was
    /// opened, and files are created exclusively (`O_EXCL`, `O_NOFOLLOW`) in a folder the caller
    /// just made. Every file and folder written is synced before this returns, so the caller can
    /// make the folder visible knowing its bytes are on the disk. On a mismatch the folder is left
    /// as it is, for the caller to delete.
    /// - Parameters:
    ///   - directory: An empty folder to write into, or `nil` to verify only.
    ///   - wholeFileDigest: Whether to compute the SHA-256 of the whole archive too, to compare it with
    ///     a download manifest's.
    ///   - progress: Called after each file.
    /// - Returns: The whole archive's SHA-256 when `wholeFileDigest` is `true`, else `nil`.
    /// - Throws: ``AssetPackArchiveError``: `.tampered` naming the file whose bytes do not match, or `.io`.
    @discardableResult
    public func extract(into directory: URL?, wholeFileDigest: Bool = false,
                        progress: (Progress) -> Void = { _ in }) throws(AssetPackArchiveError) -> String? {
        var whole = ArchiveDigest()
        if wholeFileDigest { whole.update(sealedBytes) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var folders = FolderMaker(root: directory)
        for folder in header.directories { try folders.make(folder, archive: path) }
        var offset = Int64(sealedBytes.count)
        var state = Progress(filesDone: 0, fileCount: header.files.count, bytesDone: 0, byteCount: header.installSize)
        for file in header.files {
            var output: Int32 = -1
            if let directory {
                try folders.makeParents(of: file.path, archive: path)
                output = open(directory.appending(path: file.path).path,
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                guard output >= 0 else {
                    throw AssetPackArchiveError(.io, path: path, problem: "cannot unpack \(file.path) (\(errnoText())).")
                }
            }
            defer { if output >= 0 { close(output) } }
            var digest = ArchiveDigest()
            var remaining = file.size
            while remaining > 0 {
                let chunk = Int(min(Int64(buffer.count), remaining))
                let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<chunk]), at: offset)
                guard count == chunk else {
                    throw AssetPackArchiveError(.truncated, path: path, problem: "ends inside \(file.path); download it again.")
                }
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                digest.update(bytes)
                if wholeFileDigest { whole.update(bytes) }
                if output >= 0 { try write(bytes, to: output, file: file.path) }
                remaining -= Int64(count)
                offset += Int64(count)
            }
            if output >= 0, fsync(output) != 0 {
                throw AssetPackArchiveError(.io, path: path, problem: "cannot sync \(file.path) (\(errnoText())).")
            }
            guard digest.finalize() == file.sha256 else {
                throw AssetPackArchiveError(.tampered, path: path, problem: "the file \(file.path) does not match its "
                    + "SHA-256: the archive was changed or damaged after packaging. Download or package it again.")
            }
            state.filesDone += 1
            state.bytesDone += file.size
            progress(state)
        }
        try folders.syncAll(archive: path)
        guard wholeFileDigest else { return nil }
        whole.update(try Self.readBytes(descriptor, count: AssetPackArchiveFormat.trailerLength, at: offset, path: path))
        return whole.finalize()
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(AssetPackArchiveError) -> Int {
        do {
            return try FileDescriptorIO.read(descriptor, into: buffer, count: buffer.count, at: offset)
        } catch {
            throw AssetPackArchiveError(.io, path: path, problem: "cannot be read (\(error.reason)).")
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to output: Int32, file: String) throws(AssetPackArchiveError) {
        do {
            try FileDescriptorIO.write(output, bytes)
        } catch {
            throw AssetPackArchiveError(.io, path: path, problem: "cannot unpack \(file) (\(error.reason)).")
        }
    }
}

/// Creates the folders of a pack under an extraction root, each once.
private struct FolderMaker {
    let root: URL?
    private var made: Set<String> = []

    init(root: URL?) {
        self.root = root
    }

    /// Syncs every folder made, and the root, so their entries survive a power cut.
    func syncAll(archive: String) throws(AssetPackArchiveError) {
        guard let root else { return }
        for folder in [root.path] + made.map({ root.appending(path: $0).path }) {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0, fsync(descriptor) == 0 else {
                if descriptor >= 0 { close(descriptor) }
                throw AssetPackArchiveError(.io, path: archive, problem: "cannot sync the folder \(folder) (\(errnoText())).")
            }
            close(descriptor)
        }
    }

    /// Creates the folders above a file.
    mutating func makeParents(of path: String, archive: String) throws(AssetPackArchiveError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        try make(String(path[..<slash]), archive: archive)
    }

    /// Creates a folder and its parents.
    mutating func make(_ path: String, archive: String) throws(AssetPackArchiveError) {
        guard let root, !made.contains(path) else { return }
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
