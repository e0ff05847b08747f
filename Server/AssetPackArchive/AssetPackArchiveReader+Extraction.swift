/*
Abstract:
Checks an archive's digests against its header and manifest, then copies its files out into a fresh folder.
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
    /// The archive is read once to digest it (``AssetPackArchiveDigests/init(reading:)``), checked
    /// (``check(_:expecting:)``), and only then, given a folder, copied out (``copyFiles(into:progress:)``):
    /// a tampered archive writes nothing.
    /// - Parameters:
    ///   - directory: An empty folder to write into, or `nil` to verify only.
    ///   - wholeFileDigest: Whether to return the SHA-256 of the whole archive, to compare it with a
    ///     download manifest's.
    ///   - progress: Called after each file written.
    /// - Returns: The whole archive's SHA-256 when `wholeFileDigest` is `true`, else `nil`.
    /// - Throws: ``AssetPackArchiveError``: `.tampered` naming the file whose bytes do not match, or `.io`.
    @discardableResult
    public func extract(into directory: URL?, wholeFileDigest: Bool = false,
                        progress: (Progress) -> Void = { _ in }) throws(AssetPackArchiveError) -> String? {
        let digests = try digests(matching: nil)
        try check(digests, expecting: nil)
        if let directory { try copyFiles(into: directory, progress: progress) }
        return wholeFileDigest ? digests.sha256 : nil
    }

    /// The digests of this archive: `arrived` when they were computed from exactly these bytes as
    /// they were written (same length, same header) and hold each file's when those are needed,
    /// otherwise computed now by reading the archive, or, for an archive whose files were written
    /// elsewhere as it arrived (``AssetPackArchiveDigests/unpacked``), by reading those files.
    /// - Parameters:
    ///   - arrived: Digests computed as the archive's bytes arrived, if they were.
    ///   - needsFileDigests: Whether each file's digest is needed: when no download manifest gives the whole archive's.
    /// - Throws: ``AssetPackArchiveError`` (`.io`) when the archive or a file cannot be read.
    public func digests(matching arrived: AssetPackArchiveDigests?,
                        needsFileDigests: Bool = true) throws(AssetPackArchiveError) -> AssetPackArchiveDigests {
        if let arrived, arrived.length == archiveSize, arrived.sealedBytes == sealedBytes {
            if !needsFileDigests || arrived.fileSHA256s?.count == header.files.count { return arrived }
            // The archive has holes where the files' bytes were; the files written hold them.
            if let folder = arrived.unpacked {
                return AssetPackArchiveDigests(length: arrived.length, sha256: arrived.sha256, sealedBytes: arrived.sealedBytes,
                                               fileSHA256s: try fileDigests(in: folder), unpacked: folder)
            }
        }
        return try AssetPackArchiveDigests(reading: descriptor, path: path)
    }

    /// The SHA-256 of each of the header's files in a folder they were written into, in order.
    private func fileDigests(in folder: URL) throws(AssetPackArchiveError) -> [String] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var digests: [String] = []
        for file in header.files {
            let path = folder.appending(path: file.path).path
            let input = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard input >= 0 else {
                throw AssetPackArchiveError(.io, path: path, problem: "cannot be opened (\(errnoText())).")
            }
            defer { close(input) }
            var digest = ArchiveDigest()
            var offset: Int64 = 0
            while true {
                let count = try FileDescriptorIO.read(input, into: buffer, count: buffer.count, at: offset, path: path)
                guard count > 0 else { break }
                digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                offset += Int64(count)
            }
            digests.append(digest.finalize())
        }
        return digests
    }

    /// Checks the archive's digests: the whole archive's against the download manifest's, then each
    /// file's against the header's.
    ///
    /// When the manifest's digest matches, the archive is byte for byte the one that was published,
    /// so each file's digest can only confirm it: they are compared when they were computed anyway,
    /// and are not needed otherwise (``digests(matching:needsFileDigests:)``).
    /// - Parameters:
    ///   - digests: This archive's digests, from ``digests(matching:)``.
    ///   - sha256: The whole archive's SHA-256 the download manifest lists, if any.
    /// - Throws: ``AssetPackArchiveError`` (`.tampered`) naming what does not match.
    public func check(_ digests: AssetPackArchiveDigests, expecting sha256: String?) throws(AssetPackArchiveError) {
        if let sha256, digests.sha256 != sha256 {
            throw AssetPackArchiveError(.tampered, path: path, problem: "has the SHA-256 \(digests.sha256), but the "
                + "download manifest lists \(sha256): it is not the archive that was published. Check the "
                + "server's files and the manifest.")
        }
        let changed = AssetPackArchiveError(.tampered, path: path, problem: "changed while it was checked; download it again.")
        guard digests.length == archiveSize, digests.sealedBytes == sealedBytes else { throw changed }
        if sha256 != nil, digests.fileSHA256s == nil { return }
        guard let fileDigests = digests.fileSHA256s, fileDigests.count == header.files.count else { throw changed }
        for (file, digest) in zip(header.files, fileDigests) where digest != file.sha256 {
            throw AssetPackArchiveError(.tampered, path: path, problem: "the file \(file.path) does not match its "
                + "SHA-256: the archive was changed or damaged after packaging. Download or package it again.")
        }
    }
}
