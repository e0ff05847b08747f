/*
Abstract:
Opens an asset-pack archive and checks its header, size and seal; its files are checked and copied by the extensions.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// An open archive whose header was read and checked.
///
/// Opening refuses what can be refused without reading the files: something that is not an
/// archive, a header that breaks a rule (a path leaving the pack, an unknown policy), a size other
/// than the header promises (a truncated download), and a header changed after packaging.
/// ``check(_:expecting:)`` then checks each file's bytes against its SHA-256, from digests computed
/// as the archive arrived or by reading it (``digests(matching:)``), before ``copyFiles(into:progress:)``
/// writes a byte; ``extract(into:wholeFileDigest:progress:)`` does all three.
public struct AssetPackArchiveReader: ~Copyable {
    /// The archive's path.
    public let path: String
    /// The archive's header.
    public let header: AssetPackArchiveHeader
    /// The archive's size in bytes.
    public let archiveSize: Int64
    /// The open archive.
    let descriptor: Int32
    /// The magic number, the header length and the header: the bytes the trailing digest seals.
    let sealedBytes: [UInt8]

    /// Opens and checks an archive.
    /// - Parameter url: The archive.
    /// - Throws: ``AssetPackArchiveError``: `.io`, `.notAnArchive`, `.truncated`, `.invalidHeader` or `.tampered`.
    public init(url: URL) throws(AssetPackArchiveError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AssetPackArchiveError(.io, path: url.path, problem: "cannot be opened (\(errnoText())).")
        }
        let size: Int64
        let contents: (header: AssetPackArchiveHeader, sealed: [UInt8])
        do throws(AssetPackArchiveError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                throw AssetPackArchiveError(.notAnArchive, path: url.path, problem: "is not a regular file.")
            }
            size = Int64(status.st_size)
            contents = try Self.readHeader(descriptor, size: size, path: url.path)
        } catch {
            close(descriptor)
            throw error
        }
        path = url.path
        self.descriptor = descriptor
        archiveSize = size
        header = contents.header
        sealedBytes = contents.sealed
    }

    deinit { close(descriptor) }

    private static func readHeader(_ descriptor: Int32, size: Int64,
                                   path: String) throws(AssetPackArchiveError) -> (AssetPackArchiveHeader, [UInt8]) {
        let minimum = Int64(AssetPackArchiveFormat.prefixLength + AssetPackArchiveFormat.trailerLength)
        let prefix = try readBytes(descriptor, count: AssetPackArchiveFormat.prefixLength, at: 0, path: path)
        guard prefix.count == AssetPackArchiveFormat.prefixLength,
              Array(prefix[0..<AssetPackArchiveFormat.magic.count]) == AssetPackArchiveFormat.magic else {
            throw AssetPackArchiveError(.notAnArchive, path: path, problem: "is not an asset-pack archive (its first "
                + "bytes are not the format's signature); package the pack with ba-package.")
        }
        let headerLength = prefix[8..<12].reduce(0) { $0 << 8 | Int($1) }
        guard size >= minimum, headerLength <= AssetPackArchiveFormat.maximumHeaderLength,
              Int64(headerLength) + minimum <= size else {
            throw AssetPackArchiveError(.truncated, path: path, problem: "is cut short: \(size) bytes cannot hold "
                + "the header it announces; download it again.")
        }
        let sealed = prefix + (try readBytes(descriptor, count: headerLength,
                                             at: Int64(AssetPackArchiveFormat.prefixLength), path: path))
        let seal = try readBytes(descriptor, count: AssetPackArchiveFormat.trailerLength,
                                 at: size - Int64(AssetPackArchiveFormat.trailerLength), path: path)
        var digest = ArchiveDigest()
        digest.update(sealed)
        let isSealed = digest.finalizeBytes() == seal
        let header: AssetPackArchiveHeader
        do {
            header = try AssetPackArchiveHeader(
                parsing: Data(sealed[AssetPackArchiveFormat.prefixLength...]), source: path)
        } catch {
            // A header that fails its own seal was damaged after packaging; one that passes it was
            // written wrong, and the message says which rule it breaks.
            guard isSealed else { throw tampered(path, size: size) }
            throw AssetPackArchiveError(header: error, archive: path)
        }
        let expected = AssetPackArchiveFormat.archiveSize(headerLength: headerLength, contentLength: header.installSize)
        if size < expected {
            throw AssetPackArchiveError(.truncated, path: path, problem: "is cut short: it has \(size) bytes and its "
                + "header promises \(expected); download it again.")
        }
        if size > expected {
            throw AssetPackArchiveError(.tampered, path: path, problem: "has \(size - expected) bytes more than its "
                + "header promises (\(expected)); it was changed after packaging. Package it again.")
        }
        guard isSealed else { throw tampered(path, size: size) }
        return (header, sealed)
    }

    private static func tampered(_ path: String, size: Int64) -> AssetPackArchiveError {
        AssetPackArchiveError(.tampered, path: path, problem: "does not match its seal: its header was changed or "
            + "damaged after packaging (or the file is cut short). Download or package it again.")
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    static func readBytes(_ descriptor: Int32, count: Int, at offset: Int64,
                          path: String) throws(AssetPackArchiveError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        defer { buffer.deallocate() }
        let read = try FileDescriptorIO.read(descriptor, into: buffer, count: count, at: offset, path: path)
        return Array(buffer[0..<read])
    }
}
