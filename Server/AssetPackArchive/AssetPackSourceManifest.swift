/*
Abstract:
The packaging manifest, Manifest.json: which files make a pack, its identifier, version and download policy.
*/

import AssetPackFormat
import Foundation

/// The manifest `ba-package` packages a pack from, in Apple's format:
///
/// ```json
/// {
///     "assetPackID": "Tutorial",
///     "downloadPolicy": { "essential": { "installationEventTypes": ["firstInstallation"] } },
///     "fileSelectors": [ { "file": "Videos/Introduction.m4v" }, { "directory": "Textures" } ],
///     "platforms": ["iOS", "macOS"]
/// }
/// ```
/// Paths are relative to the folder `ba-package` runs in (or to `sourceRoot`), and become the files'
/// paths in the pack. Any other key is refused, naming it, so a misspelt key cannot be silently
/// ignored.
/// - Note: `version` (default 1) and `userInfo` are this project's additions: here the version is
///   fixed when the pack is packaged and recorded in the archive, where Apple's tool takes it when
///   it writes the download manifest (`--asset-pack-versions`, which here must agree with it).
///   Apple's `language` (a pack localized for one language) is refused: packs here have no language.
public struct AssetPackSourceManifest: Sendable, Equatable {
    /// One selector: a single file, or a folder with everything in it.
    public enum FileSelector: Sendable, Equatable {
        case file(String)
        case directory(String)
    }

    /// The platform names a manifest may list.
    public static let platformNames: Set<String> = ["iOS", "iPadOS", "macOS", "tvOS", "visionOS"]

    /// The keys a packaging manifest may have.
    public static let keys = ["assetPackID", "downloadPolicy", "fileSelectors", "platforms", "sourceRoot", "userInfo", "version"]

    public var assetPackID: String
    public var version: Int
    public var downloadPolicy: AssetPackDownloadPolicy
    public var fileSelectors: [FileSelector]
    public var platforms: [String]
    public var userInfo: JSONValue?
    /// `sourceRoot`: the folder the selectors' paths are relative to, itself relative to the
    /// manifest's folder unless absolute; `nil` for the folder `ba-package` runs in.
    public var sourceRoot: String?

    /// Reads a manifest, comments and trailing commas allowed, every rule checked with the field named.
    /// - Parameters:
    ///   - data: The manifest's text.
    ///   - source: Its path, for errors.
    /// - Throws: ``AssetPackFormatError``.
    public init(parsing data: Data, source: String) throws(AssetPackFormatError) {
        let strict = Data(CommentedJSON.strict(Array(data)))
        let root = try JSONFieldReader(root: try JSONValue(parsing: strict, source: source), source: source)
        try Self.refuseUnknownKeys(of: root)
        assetPackID = try root.string("assetPackID")
        if let problem = AssetPackIdentifier.problem(with: assetPackID) { throw root.error("assetPackID", problem) }
        version = Int(try root.optionalInteger("version", in: 0...Int64(Int32.max)) ?? 1)
        downloadPolicy = try AssetPackDownloadPolicy(reading: try root.object("downloadPolicy"))
        var selectors: [FileSelector] = []
        for selector in try root.objects("fileSelectors") {
            let keys = selector.members.keys.sorted()
            guard keys.count == 1, let key = keys.first, key == "file" || key == "directory" else {
                throw selector.error(nil, "must have exactly one key, \"file\" or \"directory\" (it has "
                    + "\(keys.isEmpty ? "none" : keys.joined(separator: ", "))).")
            }
            let path = try selector.string(key)
            if let problem = AssetPackArchivePath.problem(with: path) { throw selector.error(key, problem) }
            selectors.append(key == "file" ? .file(path) : .directory(path))
        }
        guard !selectors.isEmpty else {
            throw root.error("fileSelectors", "is empty; select at least one file or directory for the pack.")
        }
        fileSelectors = selectors
        var platforms: [String] = []
        if root.members["platforms"] != nil {
            for platform in try root.strings("platforms") {
                guard Self.platformNames.contains(platform.value) else {
                    throw AssetPackFormatError(source: source, field: platform.path, problem: "\(platform.value.debugDescription) "
                        + "is not a platform; use \(Self.platformNames.sorted().joined(separator: ", ")).")
                }
                platforms.append(platform.value)
            }
        }
        self.platforms = platforms
        userInfo = root.members["userInfo"].flatMap { $0 == .null ? nil : $0 }
        sourceRoot = try root.optionalString("sourceRoot")
        if sourceRoot?.isEmpty == true {
            throw root.error("sourceRoot", "is empty; name the folder the selectors' paths are relative to, or leave "
                + "the key out to use the folder ba-package runs in.")
        }
    }

    /// Refuses `language` with the reason, and any key a manifest does not have with the nearest one it does.
    private static func refuseUnknownKeys(of root: JSONFieldReader) throws(AssetPackFormatError) {
        if root.members["language"] != nil {
            throw root.error("language", "localizes a pack for one language, which Apple's 27 releases added; packs "
                + "on this device have no language, so every device would get this pack whatever its language. Remove "
                + "the key, and give each language's pack an identifier of its own if you need several.")
        }
        for key in root.members.keys.sorted() where !keys.contains(key) {
            let hint = NearestName.suggestion(for: key, among: keys).map { " Did you mean \"\($0)\"?" } ?? ""
            throw root.error(nil, "unknown key \"\(key)\".\(hint) A packaging manifest has only "
                + "\(keys.joined(separator: ", ")).")
        }
    }
}
