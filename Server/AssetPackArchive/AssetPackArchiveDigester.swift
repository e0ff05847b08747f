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
    // Internal rather than private: a saved state reads and restores them (+SavedState).
    var whole = ArchiveDigest()
    var length: Int64 = 0
    /// The magic number, the header's length and the header, collected until the header is whole.
    var sealed: [UInt8] = []
    var headerLength: Int?
    /// The files' sizes, once the header was read; `nil` before, and for good when it cannot be.
    var fileSizes: [Int64]?
    var isReadable = true
    var file = ArchiveDigest()
    var fileRemaining: Int64 = 0
    var fileDigests: [String] = []
    /// Files whose bytes are all in.
    var filesDone = 0
    let digestsFiles: Bool
    let sink: ArchiveFileSink?

    /// Starts with no bytes.
    /// - Parameters:
    ///   - digestsFiles: Whether to digest each file too, besides the whole archive. A
    ///   download manifest's SHA-256 of the whole archive makes theirs redundant (see
    ///   ``AssetPackArchiveReader/check(_:expecting:)``); without one, they are what is checked.
    ///   - sink: Where to write each file's bytes as they come, if anywhere.
    public init(digestsFiles: Bool = true, sink: ArchiveFileSink? = nil) {
        self.digestsFiles = digestsFiles
        self.sink = sink
    }

    /// The number of bytes digested so far.
    public var byteCount: Int64 { length }

    /// Adds the next bytes of the archive.
    /// - Returns: Where, among `bytes`, are those that belong to a file and went to the sink, whose
    ///   file now holds them: the archive itself need not keep them. They are one run, since a
    ///   piece holds at most the header's end, then files, then the trailer's start. Empty when
    ///   none did: no sink, a piece of header or trailer only, or a sink that stopped (whatever
    ///   it took of this piece is then the archive's to keep too).
    @discardableResult
    public mutating func update(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
        guard !bytes.isEmpty else { return 0..<0 }
        whole.update(bytes)
        length += Int64(bytes.count)
        var stored: Range<Int>?
        var rest = bytes[...]
        while !rest.isEmpty, isReadable {
            if let sizes = fileSizes {
                // Past the last file comes the trailer, which only the whole digest needs.
                guard digestsFiles || sink != nil, filesDone < sizes.count else { break }
                let count = Int(min(Int64(rest.count), fileRemaining))
                let piece = UnsafeRawBufferPointer(rebasing: rest.prefix(count))
                if digestsFiles { file.update(piece) }
                if let sink {
                    sink.write(piece, toFile: filesDone)
                    stored = (stored?.lowerBound ?? rest.startIndex)..<(rest.startIndex + count)
                }
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
        // An unreadable header leaves the bytes to the archive; so does a sink that stopped.
        guard let stored, isReadable, sink?.problem == nil else { return 0..<0 }
        return stored
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
        let complete = digestsFiles && fileSizes.map { fileDigests.count == $0.count } == true
        return AssetPackArchiveDigests(length: length, sha256: whole.finalizeAndRestart(),
                                       sealedBytes: fileSizes == nil ? nil : sealed, fileSHA256s: complete ? fileDigests : nil,
                                       unpacked: sink?.isComplete == true ? sink?.folder : nil)
    }

    /// Reads the header's length, then the header, once their bytes are all there.
    mutating func readSealedBytes() {
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
        sink?.headerRead(header)
        finishFiles()
    }

    /// Closes the digest of every file whose bytes are all in (an empty file at once).
    private mutating func finishFiles() {
        guard digestsFiles || sink != nil, let sizes = fileSizes else { return }
        while filesDone < sizes.count, fileRemaining == 0 {
            if digestsFiles { fileDigests.append(file.finalizeAndRestart()) }
            sink?.fileEnded(filesDone)
            filesDone += 1
            if filesDone < sizes.count { fileRemaining = sizes[filesDone] }
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
    /// A folder holding every file of the archive, written as its bytes arrived (``ArchiveFileSink``),
    /// not yet synced; the unpack installs it instead of copying the files out.
    public let unpacked: URL?

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

    init(length: Int64, sha256: String, sealedBytes: [UInt8]?, fileSHA256s: [String]?, unpacked: URL? = nil) {
        self.length = length
        self.sha256 = sha256
        self.sealedBytes = sealedBytes
        self.fileSHA256s = fileSHA256s
        self.unpacked = unpacked
    }
}
