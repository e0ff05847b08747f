/*
Abstract:
The state of an archive's digests at one byte, saved at a download's checkpoint and restored by the next run of the service.
*/

import Foundation

extension AssetPackArchiveDigester {
    /// Everything a digester needs to go on from the bytes it has seen, without them: the digests'
    /// states (``ArchiveDigest/exportedState``), where the bytes are in the archive, and a digest of
    /// the header bytes collected (kept apart, since they are written once and may be large).
    public struct SavedState: Codable, Sendable, Equatable {
        /// The bytes digested.
        public var byteCount: Int64
        var whole: [UInt8]
        /// How many of the magic number, length and header bytes were collected, and their SHA-256.
        var sealedCount: Int
        var sealedSHA256: String
        var isReadable: Bool
        /// Whether the files' boundaries were followed (each file digested, or written to a sink).
        var tracksFiles: Bool
        var digestsFiles: Bool
        var file: [UInt8]?
        var fileRemaining: Int64
        var fileDigests: [String]
        var filesDone: Int
    }

    /// The state after the bytes so far.
    public var savedState: SavedState {
        var sealedDigest = ArchiveDigest()
        sealedDigest.update(sealed)
        return SavedState(byteCount: length, whole: whole.exportedState, sealedCount: sealed.count,
                          sealedSHA256: sealedDigest.finalize(), isReadable: isReadable, tracksFiles: digestsFiles || sink != nil,
                          digestsFiles: digestsFiles, file: digestsFiles ? file.exportedState : nil,
                          fileRemaining: fileRemaining, fileDigests: fileDigests, filesDone: filesDone)
    }

    /// The magic number, length and header bytes collected so far, which ``SavedState`` refers to.
    public var sealedBytes: [UInt8] { sealed }

    /// The header held by complete sealed bytes, or `nil` while they are not complete or not a header.
    static func header(inSealed sealed: [UInt8]) -> AssetPackArchiveHeader? {
        let prefix = AssetPackArchiveFormat.prefixLength
        guard sealed.count >= prefix, Array(sealed[0..<8]) == AssetPackArchiveFormat.magic else { return nil }
        let announced = sealed[8..<12].reduce(0) { $0 << 8 | Int($1) }
        guard announced <= AssetPackArchiveFormat.maximumHeaderLength, sealed.count == prefix + announced else { return nil }
        return try? AssetPackArchiveHeader(parsing: Data(sealed[prefix...]), source: "")
    }

    /// Restores a digester from a saved state and the sealed bytes it refers to.
    /// - Parameters:
    ///   - state: What ``savedState`` returned.
    ///   - sealedBytes: What ``sealedBytes`` returned with it.
    ///   - sink: Where the files' bytes go on, restored at the same byte (``ArchiveFileSink/init(resuming:in:header:expecting:)``).
    /// - Throws: ``AssetPackArchiveError`` (`.unresumable`) naming what does not fit; start over from zero then.
    public init(restoring state: SavedState, sealedBytes: [UInt8], sink: ArchiveFileSink?) throws(AssetPackArchiveError) {
        func refuse(_ problem: String) -> AssetPackArchiveError {
            AssetPackArchiveError(.unresumable, path: sink?.folder.path ?? "", problem: problem)
        }
        self.init(digestsFiles: state.digestsFiles, sink: sink)
        guard state.tracksFiles == (state.digestsFiles || sink != nil) else { throw refuse("its files were written elsewhere") }
        var sealedDigest = ArchiveDigest()
        sealedDigest.update(sealedBytes)
        guard sealedBytes.count == state.sealedCount, sealedDigest.finalize() == state.sealedSHA256 else {
            throw refuse("the header bytes kept are not the ones digested")
        }
        guard let whole = ArchiveDigest(importing: state.whole), whole.byteCount == state.byteCount else {
            throw refuse("the archive's digest state is not one this system saved for \(state.byteCount) bytes")
        }
        self.whole = whole
        length = state.byteCount
        sealed = sealedBytes
        isReadable = state.isReadable
        guard isReadable else {
            guard sealed.isEmpty, sink == nil else { throw refuse("an unreadable archive has no files to write") }
            return
        }
        let prefix = AssetPackArchiveFormat.prefixLength
        if sealed.count >= prefix {
            headerLength = sealed[8..<12].reduce(0) { $0 << 8 | Int($1) }
        }
        guard let header = Self.header(inSealed: sealed) else {
            // Still inside the header: every byte so far is one of it.
            guard length == Int64(sealed.count),
                  headerLength.map({ $0 <= AssetPackArchiveFormat.maximumHeaderLength && sealed.count < prefix + $0 }) ?? true,
                  state.filesDone == 0, state.fileDigests.isEmpty else {
                throw refuse("the header bytes kept do not hold a readable header")
            }
            return
        }
        let sizes = header.files.map(\.size)
        fileSizes = sizes
        // A header read was refused if its sizes could overflow this sum.
        let archiveSize = Int64(sealed.count) + header.installSize + Int64(AssetPackArchiveFormat.trailerLength)
        guard state.tracksFiles else {
            guard length >= Int64(sealed.count), length <= archiveSize else { throw refuse("the byte count does not fit the header") }
            return
        }
        try restorePosition(state, sizes: sizes, archiveSize: archiveSize, refuse: refuse)
    }

    /// Restores which file the bytes are in, checking it against the header's sizes and the byte count.
    private mutating func restorePosition(_ state: SavedState, sizes: [Int64], archiveSize: Int64,
                                          refuse: (String) -> AssetPackArchiveError) throws(AssetPackArchiveError) {
        let done = state.filesDone
        guard done >= 0, done <= sizes.count else { throw refuse("it counts \(done) files of \(sizes.count)") }
        let current = done < sizes.count ? sizes[done] : 0
        // An unfinished file always has bytes left: an empty one ends as soon as it starts.
        guard state.fileRemaining >= 0, state.fileRemaining <= current, done == sizes.count || state.fileRemaining > 0 else {
            throw refuse("file \(done) has \(state.fileRemaining) bytes left of \(current)")
        }
        let position = Int64(sealed.count) + sizes[..<done].reduce(0, +) + (current - state.fileRemaining)
        let fitsPosition = done < sizes.count ? length == position : (length >= position && length <= archiveSize)
        guard fitsPosition else { throw refuse("\(state.byteCount) bytes do not end where file \(done) is") }
        if digestsFiles {
            guard let saved = state.file, let file = ArchiveDigest(importing: saved), state.fileDigests.count == done,
                  file.byteCount == current - state.fileRemaining else {
                throw refuse("the files' digest states do not fit")
            }
            self.file = file
            fileDigests = state.fileDigests
        }
        filesDone = done
        fileRemaining = state.fileRemaining
    }
}
