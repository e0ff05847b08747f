/*
Abstract:
The saved state of an archive arriving into a file sink: its digests and where its files stand, as bytes that refuse to decode when damaged.
*/

import AssetPackFormat
import Foundation

/// What a download of an archive keeps at each checkpoint so that the next run of the service
/// can go on digesting it and writing its files where this one stopped.
///
/// Encoded as the signature `\x89BAARRV\n`, a JSON body and the SHA-256 of both, so a file cut
/// short or damaged is refused as a whole; the header bytes it refers to are kept apart
/// (``AssetPackArchiveDigester/sealedBytes``), since they are written once and may be large.
public struct ArchiveArrivalState: Codable, Sendable, Equatable {
    /// The layout of the body; another is refused.
    static let currentVersion = 1
    static let signature: [UInt8] = [0x89, 0x42, 0x41, 0x41, 0x52, 0x52, 0x56, 0x0A]

    var formatVersion: Int
    /// The digests' state.
    public var digester: AssetPackArchiveDigester.SavedState
    /// Where the files stand, when they are written as they arrive.
    public var sink: ArchiveFileSink.Position?

    /// The archive's bytes the state covers.
    public var byteCount: Int64 { digester.byteCount }

    /// Creates a state from a digester's and its sink's.
    public init(digester: AssetPackArchiveDigester.SavedState, sink: ArchiveFileSink.Position?) {
        formatVersion = Self.currentVersion
        self.digester = digester
        self.sink = sink
    }

    /// The state as bytes, for ``init(decoding:)``.
    public var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain numbers, strings and arrays cannot fail.
        let body = Array((try? encoder.encode(self)) ?? Data())
        var digest = ArchiveDigest()
        digest.update(Self.signature + body)
        return Self.signature + body + digest.finalizeBytes()
    }

    /// Reads a state written by ``encoded``.
    /// - Throws: ``AssetPackArchiveError`` (`.unresumable`) when the bytes are cut short, damaged,
    ///   or of another layout.
    public init(decoding bytes: [UInt8], path: String) throws(AssetPackArchiveError) {
        func refuse(_ problem: String) -> AssetPackArchiveError { AssetPackArchiveError(.unresumable, path: path, problem: problem) }
        let trailer = AssetPackArchiveFormat.trailerLength
        guard bytes.count > Self.signature.count + trailer, Array(bytes.prefix(Self.signature.count)) == Self.signature else {
            throw refuse("is not a saved arrival state")
        }
        var digest = ArchiveDigest()
        digest.update(Array(bytes.dropLast(trailer)))
        guard digest.finalizeBytes() == Array(bytes.suffix(trailer)) else { throw refuse("is damaged (its digest does not match)") }
        let body = Data(bytes[Self.signature.count..<(bytes.count - trailer)])
        guard let state = try? JSONDecoder().decode(Self.self, from: body) else { throw refuse("cannot be decoded") }
        guard state.formatVersion == Self.currentVersion else {
            throw refuse("is of version \(state.formatVersion); this system reads version \(Self.currentVersion)")
        }
        self = state
    }

    /// The sink that goes on where this state's stopped, in `staging`, or `nil` when the files were
    /// written nowhere.
    /// - Parameters:
    ///   - staging: The staging folder the sink's folder is in.
    ///   - sealedBytes: The header bytes kept with the state, checked by the digester's restore.
    ///   - expected: The pack version the download is for.
    /// - Throws: ``AssetPackArchiveError`` (`.unresumable`) naming what does not fit.
    public func resumingSink(in staging: URL, sealedBytes: [UInt8],
                             expecting expected: AssetPackDownloadIdentifier?) throws(AssetPackArchiveError) -> ArchiveFileSink? {
        guard let position = sink else { return nil }
        if let header = AssetPackArchiveDigester.header(inSealed: sealedBytes) {
            return try ArchiveFileSink(resuming: position, in: staging, header: header, expecting: expected)
        }
        // The header was not whole at the checkpoint: the sink had made nothing yet, and what a
        // later header made is made again.
        guard position.fileIndex == -1, position.filesEnded == 0, !position.folderName.isEmpty,
              !position.folderName.hasPrefix("."), !position.folderName.contains("/") else {
            throw AssetPackArchiveError(.unresumable, path: staging.path, problem: "the sink wrote files before its header was whole")
        }
        let folder = staging.appending(path: position.folderName, directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)
        return ArchiveFileSink(folder: folder, expecting: expected)
    }
}
