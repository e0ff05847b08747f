/*
Abstract:
The error of packaging, reading and unpacking asset-pack archives: the file at fault and what to do.
*/

import AssetPackFormat

/// Why an archive could not be written, read, verified or unpacked.
///
/// The description names the archive or source file and, for a damaged archive, the file inside it
/// whose bytes do not match, so that "tampered" is never a riddle.
public struct AssetPackArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for callers that react differently (a truncated download is retried,
    /// a tampered one is not).
    public enum Kind: Sendable, Equatable {
        /// A file could not be opened, read or written.
        case io
        /// The file is not an asset-pack archive, or of a format version this system cannot read.
        case notAnArchive
        /// The archive is shorter or longer than its header says.
        case truncated
        /// The archive's header breaks a rule of the format (a path that leaves the pack, a bad policy).
        case invalidHeader
        /// Bytes do not match their SHA-256: the archive was changed or damaged after packaging.
        case tampered
        /// The archive is not the pack or version that was expected.
        case unexpectedPack
        /// A packaging manifest or its files are unusable.
        case invalidSource
        /// The saved state of an archive's arrival cannot be continued: the download starts over.
        case unresumable
    }

    /// The kind of failure.
    public var kind: Kind
    /// The archive, manifest or file at fault.
    public var path: String
    /// What is wrong and what to do next.
    public var problem: String

    /// Creates an error.
    public init(_ kind: Kind, path: String, problem: String) {
        self.kind = kind
        self.path = path
        self.problem = problem
    }

    /// An archive whose header breaks a rule of the format.
    init(header error: AssetPackFormatError, archive path: String) {
        self.init(.invalidHeader, path: path, problem: "its header is invalid: "
            + (error.field.map { "\($0): " } ?? "") + error.problem)
    }

    /// The error as one line.
    public var description: String { "\(path): \(problem)" }
}
