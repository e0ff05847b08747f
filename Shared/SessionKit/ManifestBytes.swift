/*
Abstract:
Where a manifest's bytes come from, handed out a piece at a time: a file on disk or bytes in memory.
*/

import Foundation

/// A manifest's bytes, read in pieces so that a large file is never in memory whole.
///
/// A source can be opened more than once: after a problem with a field, the manifest is read again
/// from the start to find any syntax mistake, which is reported first, wherever it is.
struct ManifestBytes {
    /// A reader that hands out the next piece, or `nil` after the last.
    typealias Pieces = () throws -> [UInt8]?

    /// How much is read at a time: large enough that a read is rare, small beside the extension's memory.
    static let pieceSize = 1 << 16

    /// Starts reading from the beginning.
    let open: () throws -> Pieces

    /// Bytes already in memory.
    static func data(_ data: Data) -> ManifestBytes {
        ManifestBytes {
            var offset = data.startIndex
            return {
                guard offset < data.endIndex else { return nil }
                let end = data.index(offset, offsetBy: pieceSize, limitedBy: data.endIndex) ?? data.endIndex
                defer { offset = end }
                return Array(data[offset..<end])
            }
        }
    }

    /// A file, read as the pieces are asked for.
    /// - Throws: ``SessionKitError/fileUnreadable(path:reason:)`` from opening or reading it.
    static func file(_ url: URL) -> ManifestBytes {
        ManifestBytes {
            let handle: FileHandle
            do {
                handle = try FileHandle(forReadingFrom: url)
            } catch {
                throw SessionKitError.fileUnreadable(path: url.path, reason: Manifest.reason(for: error))
            }
            return {
                let piece: Data?
                do {
                    piece = try handle.read(upToCount: pieceSize)
                } catch {
                    throw SessionKitError.fileUnreadable(path: url.path, reason: Manifest.reason(for: error))
                }
                guard let piece, !piece.isEmpty else { return nil }
                return Array(piece)
            }
        }
    }
}
