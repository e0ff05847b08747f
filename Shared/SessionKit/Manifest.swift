/*
Abstract:
The manifest: the list of session videos the server offers, loaded and validated, saved atomically.
*/

import Foundation

/// The list of sessions the asset server offers, as served at `manifest.json`.
///
/// ```json
/// { "version": 3, "sessions": [ { "id": "wwdc23-10108", "title": "What's new in Background Assets",
///   "url": "sessions/wwdc23-10108.mp4", "fileSize": 8388608, "sha256": "…", "essential": true } ] }
/// ```
public struct Manifest: Codable, Sendable, Equatable {
    /// Increases whenever the server's content changes.
    public var version: Int
    /// The sessions, in display order.
    public var sessions: [Session] {
        didSet { positions = SessionPositions() }
    }

    /// Where each session is in ``sessions``, by identifier: the app and the extension look a session up
    /// for every callback, and a search of a manifest of thousands each time would cost more than the download.
    private var positions = SessionPositions()

    /// The manifest's top-level field names, written only here; a session's are ``Session``'s.
    enum CodingKeys: String, CodingKey {
        case version, sessions
    }

    /// Creates a manifest.
    public init(version: Int, sessions: [Session]) {
        self.version = version
        self.sessions = sessions
    }

    /// Decodes a manifest without validating it; ``decode(_:source:baseURL:)`` validates, and reads
    /// a large manifest in far less memory.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            version: container.decode(Int.self, forKey: .version),
            sessions: container.decode([Session].self, forKey: .sessions))
    }

    public static func == (lhs: Manifest, rhs: Manifest) -> Bool {
        lhs.version == rhs.version && lhs.sessions == rhs.sessions
    }

    /// The session with the given identifier, if the manifest lists it.
    public func session(withID id: Session.ID) -> Session? {
        positions.position(of: id, in: sessions).map { sessions[$0] }
    }

    /// The session a Background Assets download fetches, matched by download identifier.
    public func session(forDownloadIdentifier identifier: String) -> Session? {
        // A session's download identifier is its identifier (see ``Session/downloadIdentifier``).
        session(withID: identifier)
    }

    /// Loads and validates a manifest file.
    ///
    /// Relative session URLs are resolved against `baseURL`, the URL the manifest was
    /// downloaded from, so one manifest works behind any host and port. Without a base they
    /// stay relative. The file is read a piece at a time, so its size adds little to the memory
    /// the sessions take.
    /// - Parameters:
    ///   - url: The manifest file.
    ///   - baseURL: The manifest's own remote URL, used to resolve relative session URLs.
    /// - Throws: ``SessionKitError`` naming the file, and the field and session at fault.
    public static func load(from url: URL, baseURL: URL? = nil) throws -> Manifest {
        try ManifestReader(source: url.path, baseURL: baseURL).read(.file(url))
    }

    /// Decodes and validates manifest JSON.
    /// - Parameters:
    ///   - data: The manifest's bytes.
    ///   - source: Where the bytes came from, for error messages (a path or a URL).
    ///   - baseURL: The manifest's own remote URL, used to resolve relative session URLs.
    /// - Throws: ``SessionKitError`` naming the field and session at fault.
    public static func decode(_ data: Data, source: String, baseURL: URL? = nil) throws -> Manifest {
        try ManifestReader(source: source, baseURL: baseURL).read(.data(data))
    }

    /// The manifest as JSON: pretty printed with sorted keys, so equal manifests are equal bytes.
    ///
    /// The bytes are those `JSONEncoder` writes with `.prettyPrinted`, `.sortedKeys` and
    /// `.withoutEscapingSlashes`, written directly rather than through the encoder's tree.
    public func encoded() throws -> Data {
        var data = Data()
        try ManifestWriter.write(self) { data.append(contentsOf: $0) }
        return data
    }

    /// Writes the manifest atomically: readers see the old manifest or the new one, never a mix.
    ///
    /// The JSON goes to the file as it is written, so a large manifest's text is never in memory whole.
    /// - Parameter url: Where to save it; the folder is created if needed.
    /// - Throws: ``SessionKitError/fileUnwritable(path:reason:)``.
    public func save(to url: URL) throws {
        _ = try saveReturningVersion(to: url)
    }

    /// ``save(to:)``, returning the saved file's status for ``LocalManifestCache``.
    func saveReturningVersion(to url: URL) throws -> FileStatus? {
        try AtomicFile.writeReturningVersion(to: url) { write in try ManifestWriter.write(self, emit: write) }
    }

    /// Whether a string is acceptable as a session identifier: letters, digits, `.`, `-`, `_`,
    /// not starting with a dot, at most 128 characters. Identifiers name files, so nothing else
    /// is allowed.
    public static func isValidIdentifier(_ identifier: String) -> Bool {
        guard !identifier.isEmpty, identifier.utf8.count <= 128, !identifier.hasPrefix(".") else { return false }
        return identifier.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }

    /// A Foundation error's reason, for the messages of ``SessionKitError``.
    static func reason(for error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}
