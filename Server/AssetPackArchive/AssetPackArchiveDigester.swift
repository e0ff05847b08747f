/*
Abstract:
Digests an archive's bytes in order, as they arrive: the SHA-256 of the whole archive and of each file its header lists.
*/

import BackgroundAssetsIPC
import Foundation

/// Computes every digest an install checks, from the archive's bytes in the order they are
/// written, so that a download can be checked as it arrives instead of being read again.
///
/// It reads the header out of the bytes themselves to find where each file starts and ends. It
/// judges nothing: the unpacker opens the archive, checks its header and seal, and compares these
/// digests with the manifest's and the header's (``AssetPackArchiveReader/check(_:expecting:)``).
/// Bytes that are not a readable archive still get their whole digest; they only lack the files'.
public struct AssetPackArchiveDigester: ~Copyable {
    private var whole = ArchiveDigest()
    private var length: Int64 = 0
    /// The magic number, the header's length and the header, collected until the header is whole.
    private var sealed: [UInt8] = []
    private var headerLength: Int?
    /// The files' sizes, once the header was read; `nil` before, and for good when it cannot be.
    private var fileSizes: [Int64]?
    private var isReadable = true
    private var file = ArchiveDigest()
    private var fileRemaining: Int64 = 0
    private var fileDigests: [String] = []
    private let digestsFiles: Bool

    /// Starts with no bytes.
    /// - Parameter digestsFiles: Whether to digest each file too, besides the whole archive. A
    ///   download manifest's SHA-256 of the whole archive makes theirs redundant (see
    ///   ``AssetPackArchiveReader/check(_:expecting:)``); without one, they are what is checked.
    public init(digestsFiles: Bool = true) {
        self.digestsFiles = digestsFiles
    }

    /// The number of bytes digested so far.
    public var byteCount: Int64 { length }

    /// Adds the next bytes of the archive.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        whole.update(bytes)
        length += Int64(bytes.count)
        var rest = bytes[...]
        while !rest.isEmpty, isReadable {
            if let sizes = fileSizes {
                guard digestsFiles, fileDigests.count < sizes.count else { return }  // the trailer: the whole digest has it
                let count = Int(min(Int64(rest.count), fileRemaining))
                file.update(UnsafeRawBufferPointer(rebasing: rest.prefix(count)))
                rest = rest.dropFirst(count)
                fileRemaining -= Int64(count)
                finishFiles()
            } else {
                let wanted = AssetPackArchiveFormat.prefixLength + (headerLength ?? 0) - sealed.count
                sealed.append(contentsOf: rest.prefix(wanted))
                rest = rest.dropFirst(wanted)
                readSealedBytes()
            }
        }
    }

    /// Adds the bytes of a file from where the bytes so far end, up to `limit` bytes in all, or to
    /// its end: the bytes a resumed download had before this attempt, for instance.
    /// - Parameters:
    ///   - descriptor: A file open for reading.
    ///   - limit: Where to stop, or `nil` for the end of the file.
    ///   - path: The file, for errors.
    /// - Throws: ``AssetPackArchiveError`` (`.io`) when it cannot be read.
    public mutating func read(_ descriptor: Int32, upTo limit: Int64?, path: String) throws(AssetPackArchiveError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while limit.map({ length < $0 }) ?? true {
            let wanted = Int(min(Int64(buffer.count), (limit ?? .max) - length))
            let count = try FileDescriptorIO.read(descriptor, into: buffer, count: wanted, at: length, path: path)
            guard count > 0 else { return }
            update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Ends the bytes.
    /// - Returns: The digests of the bytes added.
    public mutating func finish() -> AssetPackArchiveDigests {
        let complete = fileSizes.map { fileDigests.count == $0.count } ?? false
        return AssetPackArchiveDigests(length: length, sha256: whole.finalizeAndRestart(),
                                       sealedBytes: fileSizes == nil ? nil : sealed, fileSHA256s: complete ? fileDigests : nil)
    }

    /// Reads the header's length, then the header, once their bytes are all there.
    private mutating func readSealedBytes() {
        let prefix = AssetPackArchiveFormat.prefixLength
        if headerLength == nil, sealed.count == prefix {
            let announced = sealed[8..<12].reduce(0) { $0 << 8 | Int($1) }
            guard Array(sealed[0..<8]) == AssetPackArchiveFormat.magic,
                  announced <= AssetPackArchiveFormat.maximumHeaderLength else { return stopReadingFiles() }
            headerLength = announced
        }
        guard let headerLength, sealed.count == prefix + headerLength else { return }
        guard let header = try? AssetPackArchiveHeader(parsing: Data(sealed[prefix...]), source: "") else {
            return stopReadingFiles()
        }
        fileSizes = header.files.map(\.size)
        fileRemaining = fileSizes?.first ?? 0
        finishFiles()
    }

    /// Closes the digest of every file whose bytes are all in (an empty file at once).
    private mutating func finishFiles() {
        guard digestsFiles, let sizes = fileSizes else { return }
        while fileDigests.count < sizes.count, fileRemaining == 0 {
            fileDigests.append(file.finalizeAndRestart())
            if fileDigests.count < sizes.count { fileRemaining = sizes[fileDigests.count] }
        }
    }

    private mutating func stopReadingFiles() {
        isReadable = false
        sealed = []
    }
}

/// The digests of an archive's bytes, from an ``AssetPackArchiveDigester``.
public struct AssetPackArchiveDigests: Sendable, Equatable {
    /// The number of bytes digested.
    public let length: Int64
    /// The SHA-256 of all of them, lowercase hexadecimal: what a download manifest lists.
    public let sha256: String
    /// The magic number, length and header the files were found by, when the header was readable.
    let sealedBytes: [UInt8]?
    /// Each file's SHA-256, in the header's order, when the header was readable and every file whole.
    public let fileSHA256s: [String]?

    /// Digests an archive on disk, reading it once from start to end.
    /// - Throws: ``AssetPackArchiveError`` (`.io`) when it cannot be read.
    public init(reading url: URL) throws(AssetPackArchiveError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AssetPackArchiveError(.io, path: url.path, problem: "cannot be opened (\(errnoText())).")
        }
        defer { close(descriptor) }
        self = try Self(reading: descriptor, path: url.path)
    }

    /// Digests an open archive from its first byte to its end.
    init(reading descriptor: Int32, path: String) throws(AssetPackArchiveError) {
        var digester = AssetPackArchiveDigester()
        try digester.read(descriptor, upTo: nil, path: path)
        self = digester.finish()
    }

    init(length: Int64, sha256: String, sealedBytes: [UInt8]?, fileSHA256s: [String]?) {
        self.length = length
        self.sha256 = sha256
        self.sealedBytes = sealedBytes
        self.fileSHA256s = fileSHA256s
    }
}
