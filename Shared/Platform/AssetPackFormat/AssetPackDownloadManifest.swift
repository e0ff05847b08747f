/*
Abstract:
The download manifest a server publishes for self-hosted asset packs: each pack's version, size, policy and URL.
*/

import Foundation

/// The JSON file that lists the asset packs a server offers, as `ba-package download-manifest create`
/// writes it and the system reads it from the app's `BAManifestURL`.
///
/// ```json
/// { "assetPacks": [ { "id": "Tutorial", "version": 2, "url": "Tutorial", "downloadSize": 5242992,
///                     "downloadPolicy": { "essential": { "installationEventTypes": ["firstInstallation"] } },
///                     "host": { "thirdParty": {} }, "sha256": "…", "installSize": 5242880 } ] }
/// ```
/// `url` may be relative: it resolves against the manifest's own URL. `sha256`, `installSize` and
/// `userInfo` are this project's additions to the keys Apple's tool writes; `sha256` lets the system
/// refuse a pack that is not the one the manifest promised before it unpacks a byte.
public struct AssetPackDownloadManifest: Sendable, Equatable {
    /// One pack the server offers.
    public struct Entry: Sendable, Hashable {
        /// The pack's identifier.
        public var id: String
        /// The pack's version; a higher number replaces an installed lower one.
        public var version: Int
        /// Where the pack's archive is, as written (possibly relative to the manifest).
        public var url: String
        /// The archive's size in bytes.
        public var downloadSize: Int64
        /// When the system downloads the pack.
        public var downloadPolicy: AssetPackDownloadPolicy
        /// The archive's SHA-256 in lowercase hexadecimal, when the manifest gives it.
        public var sha256: String?
        /// The size of the pack's files once unpacked, when the manifest gives it.
        public var installSize: Int64?
        /// Custom information for the app, as JSON.
        public var userInfo: JSONValue?

        /// Creates an entry.
        public init(id: String, version: Int, url: String, downloadSize: Int64, downloadPolicy: AssetPackDownloadPolicy,
                    sha256: String? = nil, installSize: Int64? = nil, userInfo: JSONValue? = nil) {
            self.id = id
            self.version = version
            self.url = url
            self.downloadSize = downloadSize
            self.downloadPolicy = downloadPolicy
            self.sha256 = sha256
            self.installSize = installSize
            self.userInfo = userInfo
        }

        /// The archive's absolute URL: ``url`` resolved against the manifest's URL when it is relative.
        /// - Parameter manifestURL: Where the manifest was fetched from, or `nil` when unknown.
        /// - Returns: The URL, or `nil` when ``url`` is relative and there is nothing to resolve it against.
        public func archiveURL(relativeTo manifestURL: URL?) -> URL? {
            if let absolute = URL(string: url), absolute.scheme != nil { return absolute }
            guard let manifestURL else { return nil }
            return URL(string: url, relativeTo: manifestURL)?.absoluteURL
        }
    }

    /// The packs, in the order the manifest lists them.
    public var assetPacks: [Entry]

    /// Creates a manifest.
    public init(assetPacks: [Entry]) {
        self.assetPacks = assetPacks
    }

    /// The entry with an identifier, if the manifest lists it.
    public func entry(withID id: String) -> Entry? {
        assetPacks.first { $0.id == id }
    }

    /// Reads a manifest, refusing duplicate identifiers, unknown download policies, bad sizes and
    /// versions, with the field at fault named.
    /// - Parameters:
    ///   - data: The manifest's JSON.
    ///   - source: Its file or URL, for errors.
    /// - Throws: ``AssetPackFormatError``.
    public init(parsing data: Data, source: String) throws(AssetPackFormatError) {
        let root = try JSONFieldReader(root: try JSONValue(parsing: data, source: source), source: source)
        var entries: [Entry] = []
        var firstPath: [String: String] = [:]
        for pack in try root.objects("assetPacks") {
            let entry = try Self.entry(reading: pack)
            if let earlier = firstPath[entry.id] {
                throw pack.error("id", "repeats the identifier \(entry.id.debugDescription) of \(earlier); "
                    + "every pack in a manifest needs its own identifier.")
            }
            firstPath[entry.id] = pack.path
            entries.append(entry)
        }
        assetPacks = entries
    }

    private static func entry(reading pack: JSONFieldReader) throws(AssetPackFormatError) -> Entry {
        let id = try pack.string("id")
        if let problem = AssetPackIdentifier.problem(with: id) { throw pack.error("id", problem) }
        let url = try pack.string("url")
        guard !url.isEmpty, URL(string: url) != nil else {
            throw pack.error("url", "\(url.debugDescription) is not a URL; give the archive's URL, absolute or "
                + "relative to the manifest.")
        }
        let sha256 = try pack.optionalString("sha256")
        if let sha256, !Self.isHexDigest(sha256) {
            throw pack.error("sha256", "is not a SHA-256 in hexadecimal (64 characters 0-9, a-f).")
        }
        if let host = try pack.optionalObject("host"), host.members["thirdParty"] == nil {
            throw host.error(nil, "names a host other than \"thirdParty\"; on this device packs are self-hosted, "
                + "so use { \"thirdParty\": {} } and serve the archive at \"url\".")
        }
        return Entry(
            id: id, version: Int(try pack.integer("version", in: 0...Int64(Int32.max))), url: url,
            downloadSize: try pack.integer("downloadSize", in: 1...Int64.max),
            downloadPolicy: try AssetPackDownloadPolicy(reading: try pack.object("downloadPolicy")),
            sha256: sha256?.lowercased(), installSize: try pack.optionalInteger("installSize", in: 0...Int64.max),
            userInfo: pack.members["userInfo"].flatMap { $0 == .null ? nil : $0 })
    }

    /// Whether a string is a SHA-256 digest in hexadecimal.
    public static func isHexDigest(_ string: String) -> Bool {
        string.utf8.count == 64 && string.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0 | 0x20) }
    }

    /// The manifest as JSON, keys sorted and indented, as `ba-package download-manifest create` writes it.
    public func encoded() -> Data {
        jsonValue.encoded()
    }

    /// The manifest as a JSON value.
    public var jsonValue: JSONValue {
        let packs = assetPacks.map { entry -> JSONValue in
            var members: [String: JSONValue] = [
                "id": .string(entry.id), "version": .integer(Int64(entry.version)), "url": .string(entry.url),
                "downloadSize": .integer(entry.downloadSize), "downloadPolicy": entry.downloadPolicy.jsonValue,
                "host": .object(["thirdParty": .object([:])]),
            ]
            members["sha256"] = entry.sha256.map(JSONValue.string)
            members["installSize"] = entry.installSize.map(JSONValue.integer)
            members["userInfo"] = entry.userInfo
            return .object(members)
        }
        return .object(["assetPacks": .array(packs)])
    }
}
