/*
Abstract:
Writes an asset-pack archive from files on disk: sizes and SHA-256 first, then the header, the bytes and the seal.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// Writes archives in ``AssetPackArchiveFormat``.
public enum AssetPackArchiveWriter {
    /// A file to put in a pack: its path in the pack and where its bytes are now.
    public struct Source: Sendable, Equatable {
        /// The path under the pack's root.
        public var path: String
        /// The file on disk.
        public var file: URL

        /// Creates a source.
        public init(path: String, file: URL) {
            self.path = path
            self.file = file
        }
    }

    /// What a pack is, apart from its files.
    public struct Identity: Sendable, Equatable {
        public var assetPackID: String
        public var version: Int
        public var downloadPolicy: AssetPackDownloadPolicy
        public var platforms: [String]
        public var userInfo: JSONValue?

        /// Creates an identity.
        public init(assetPackID: String, version: Int, downloadPolicy: AssetPackDownloadPolicy,
                    platforms: [String] = [], userInfo: JSONValue? = nil) {
            self.assetPackID = assetPackID
            self.version = version
            self.downloadPolicy = downloadPolicy
            self.platforms = platforms
            self.userInfo = userInfo
        }
    }

    /// Writes an archive to `output`, replacing it in one rename once it is complete and synced.
    /// - Parameters:
    ///   - identity: The pack's identifier, version, policy and custom information.
    ///   - directories: Folders to create even when empty, parents before children.
    ///   - sources: The files, in the order to store them.
    ///   - output: The archive to write.
    /// - Returns: The header written.
    /// - Throws: ``AssetPackArchiveError`` naming the file that could not be read or the output that could not be written.
    @discardableResult
    public static func write(identity: AssetPackArchiveWriter.Identity, directories: [String] = [], sources: [Source],
                             to output: URL) throws(AssetPackArchiveError) -> AssetPackArchiveHeader {
        var files: [AssetPackArchiveHeader.File] = []
        for source in sources {
            let (size, digest) = try measure(source.file)
            files.append(.init(path: source.path, size: size, sha256: digest))
        }
        let header = AssetPackArchiveHeader(
            assetPackID: identity.assetPackID, version: identity.version, downloadPolicy: identity.downloadPolicy,
            platforms: identity.platforms, userInfo: identity.userInfo, directories: directories, files: files)
        // What is written must read back: the same checks a device makes, before a byte is written.
        do {
            _ = try AssetPackArchiveHeader(parsing: header.encoded(), source: output.path)
        } catch {
            throw AssetPackArchiveError(header: error, archive: output.path)
        }
        let temporary = output.deletingLastPathComponent()
            .appending(path: ".\(output.lastPathComponent).\(UUID.random().uuidString).partial")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AssetPackArchiveError(.io, path: output.path, problem: "cannot be written (\(errnoText())); "
                + "check that its folder exists and is writable.")
        }
        do throws(AssetPackArchiveError) {
            defer { close(descriptor) }
            try writeContents(of: header, sources: sources, to: descriptor, output: output)
            guard fsync(descriptor) == 0 else {
                throw AssetPackArchiveError(.io, path: output.path, problem: "cannot be synced (\(errnoText())).")
            }
            guard rename(temporary.path, output.path) == 0 else {
                throw AssetPackArchiveError(.io, path: output.path, problem: "cannot be replaced (\(errnoText())).")
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        return header
    }

    private static func writeContents(of header: AssetPackArchiveHeader, sources: [Source], to descriptor: Int32,
                                      output: URL) throws(AssetPackArchiveError) {
        let headerBytes = Array(header.encoded())
        guard headerBytes.count <= AssetPackArchiveFormat.maximumHeaderLength else {
            throw AssetPackArchiveError(.invalidSource, path: output.path, problem: "would have a header of "
                + "\(headerBytes.count) bytes, over the \(AssetPackArchiveFormat.maximumHeaderLength)-byte limit; "
                + "split the pack into smaller packs.")
        }
        let sealed = AssetPackArchiveFormat.prefix(headerLength: headerBytes.count) + headerBytes
        var seal = ArchiveDigest()
        seal.update(sealed)
        do {
            try sealed.withUnsafeBytes { try FileDescriptorIO.write(descriptor, $0) }
            for (source, file) in zip(sources, header.files) {
                try copy(source.file, expecting: file.size, to: descriptor)
            }
            try seal.finalizeBytes().withUnsafeBytes { try FileDescriptorIO.write(descriptor, $0) }
        } catch let failure as FileDescriptorIO.IOFailure {
            throw AssetPackArchiveError(.io, path: output.path, problem: "cannot be written (\(failure.reason)).")
        } catch let error as AssetPackArchiveError {
            throw error
        } catch {
            throw AssetPackArchiveError(.io, path: output.path, problem: "cannot be written (\(error)).")
        }
    }

    /// Reads a file once for its size and SHA-256.
    private static func measure(_ file: URL) throws(AssetPackArchiveError) -> (Int64, String) {
        var digest = ArchiveDigest()
        let size = try stream(file) { digest.update($0) }
        return (size, digest.finalize())
    }

    /// Appends a file's bytes, refusing a file whose size changed since it was measured.
    private static func copy(_ file: URL, expecting size: Int64, to descriptor: Int32) throws {
        let copied = try stream(file) { bytes in try FileDescriptorIO.write(descriptor, bytes) }
        guard copied == size else {
            throw AssetPackArchiveError(.invalidSource, path: file.path, problem: "changed while it was being packaged "
                + "(\(size) bytes, then \(copied)); package it again once nothing is writing to it.")
        }
    }

    /// Calls `body` with each chunk of a file and returns the file's size.
    private static func stream(_ file: URL, _ body: (UnsafeRawBufferPointer) throws -> Void) throws(AssetPackArchiveError) -> Int64 {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AssetPackArchiveError(.invalidSource, path: file.path, problem: "cannot be read (\(errnoText())).")
        }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        do {
            while true {
                let count = try FileDescriptorIO.read(descriptor, into: buffer, count: buffer.count, at: offset)
                if count == 0 { return offset }
                try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                offset += Int64(count)
            }
        } catch let failure as FileDescriptorIO.IOFailure {
            throw AssetPackArchiveError(.invalidSource, path: file.path, problem: "cannot be read (\(failure.reason)).")
        } catch let error as AssetPackArchiveError {
            throw error
        } catch {
            throw AssetPackArchiveError(.io, path: file.path, problem: "cannot be copied (\(error)).")
        }
    }
}
