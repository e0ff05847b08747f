/*
Abstract:
The header of an asset-pack archive: the pack's identity, its download policy, and every file with its size and SHA-256.
*/

import AssetPackFormat
import Foundation

/// What an archive says about itself, stored as JSON at its start (see ``AssetPackArchiveFormat``).
///
/// Files are listed in the order their bytes follow the header, each with its size and SHA-256, so
/// a reader can check every byte as it streams past and name the file that does not match.
public struct AssetPackArchiveHeader: Sendable, Equatable {
    /// The version of the format this system writes and reads.
    public static let formatVersion = 1

    /// One file of the pack.
    public struct File: Sendable, Equatable {
        /// Its path under the pack's root.
        public var path: String
        /// Its size in bytes.
        public var size: Int64
        /// The SHA-256 of its bytes, lowercase hexadecimal.
        public var sha256: String

        /// Creates a file entry.
        public init(path: String, size: Int64, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// The pack's identifier.
    public var assetPackID: String
    /// The pack's version.
    public var version: Int
    /// When the system downloads the pack.
    public var downloadPolicy: AssetPackDownloadPolicy
    /// The platforms the packaging manifest named; kept for information, not enforced here.
    public var platforms: [String]
    /// Custom information for the app.
    public var userInfo: JSONValue?
    /// Folders of the pack, including empty ones, parents before children.
    public var directories: [String]
    /// Files of the pack, in the order their bytes follow.
    public var files: [File]

    /// Creates a header.
    public init(assetPackID: String, version: Int, downloadPolicy: AssetPackDownloadPolicy, platforms: [String] = [],
                userInfo: JSONValue? = nil, directories: [String] = [], files: [File]) {
        self.assetPackID = assetPackID
        self.version = version
        self.downloadPolicy = downloadPolicy
        self.platforms = platforms
        self.userInfo = userInfo
        self.directories = directories
        self.files = files
    }

    /// The largest sum of file sizes an archive may declare: its files, header, prefix and trailer
    /// must still add up to a size a file offset can hold.
    public static let maximumInstallSize = Int64.max - Int64(AssetPackArchiveFormat.prefixLength
        + AssetPackArchiveFormat.maximumHeaderLength + AssetPackArchiveFormat.trailerLength)

    /// The pack's size once unpacked: the sum of its files' sizes.
    ///
    /// A header read from an archive was refused if the sum passes ``maximumInstallSize``; one
    /// built in memory stops at `Int64.max` rather than trapping.
    public var installSize: Int64 {
        var total: Int64 = 0
        for file in files {
            let (sum, overflow) = total.addingReportingOverflow(file.size)
            guard !overflow else { return .max }
            total = sum
        }
        return total
    }

    /// The header as JSON.
    func encoded() -> Data {
        let files = files.map { file -> JSONValue in
            .object(["path": .string(file.path), "size": .integer(file.size), "sha256": .string(file.sha256)])
        }
        var members: [String: JSONValue] = [
            "formatVersion": .integer(Int64(Self.formatVersion)), "assetPackID": .string(assetPackID),
            "version": .integer(Int64(version)), "downloadPolicy": downloadPolicy.jsonValue,
            "platforms": .array(platforms.map(JSONValue.string)), "directories": .array(directories.map(JSONValue.string)),
            "files": .array(files),
        ]
        members["userInfo"] = userInfo
        return JSONValue.object(members).encoded(pretty: false)
    }

    /// Reads a header and checks every rule: identifier, version, policy, and paths that stay inside
    /// the pack, appear once, and never use a file as a folder.
    /// - Parameters:
    ///   - data: The header's JSON.
    ///   - source: The archive, for errors.
    /// - Throws: ``AssetPackFormatError`` naming the field at fault.
    init(parsing data: Data, source: String) throws(AssetPackFormatError) {
        let root = try JSONFieldReader(root: try JSONValue(parsing: data, source: source), source: source)
        let format = try root.integer("formatVersion", in: 0...Int64(Int32.max))
        guard format == Int64(Self.formatVersion) else {
            throw root.error("formatVersion", "is \(format); this system reads format \(Self.formatVersion). "
                + "Package the pack again with this project's ba-package.")
        }
        assetPackID = try root.string("assetPackID")
        if let problem = AssetPackIdentifier.problem(with: assetPackID) { throw root.error("assetPackID", problem) }
        version = Int(try root.integer("version", in: 0...Int64(Int32.max)))
        downloadPolicy = try AssetPackDownloadPolicy(reading: try root.object("downloadPolicy"))
        platforms = try root.members["platforms"] == nil ? [] : root.strings("platforms").map(\.value)
        userInfo = root.members["userInfo"].flatMap { $0 == .null ? nil : $0 }
        var directories: [String] = []
        for directory in try root.strings("directories") {
            if let problem = AssetPackArchivePath.problem(with: directory.value) {
                throw AssetPackFormatError(source: source, field: directory.path, problem: problem)
            }
            directories.append(directory.value)
        }
        var files: [File] = []
        for file in try root.objects("files") {
            let path = try file.string("path")
            if let problem = AssetPackArchivePath.problem(with: path) { throw file.error("path", problem) }
            let sha256 = try file.string("sha256")
            guard AssetPackDownloadManifest.isHexDigest(sha256) else {
                throw file.error("sha256", "is not a SHA-256 in hexadecimal (64 characters 0-9, a-f).")
            }
            files.append(File(path: path, size: try file.integer("size", in: 0...Int64.max), sha256: sha256.lowercased()))
        }
        self.directories = directories
        self.files = files
        try Self.checkTree(directories: directories, files: files, source: source)
        try Self.checkTotalSize(files, source: source)
    }

    /// Refuses sizes whose sum no archive can hold. Each size is checked on its own when read; two
    /// of 2^62, or one of 2^63 - 1 beside the header, would overflow every offset computed from them.
    private static func checkTotalSize(_ files: [File], source: String) throws(AssetPackFormatError) {
        var total: Int64 = 0
        for file in files {
            let (sum, overflow) = total.addingReportingOverflow(file.size)
            guard !overflow, sum <= maximumInstallSize else {
                throw AssetPackFormatError(source: source, field: "files", problem: "has sizes that add up to more "
                    + "than \(maximumInstallSize) bytes (at \(file.path.debugDescription)); no archive can hold "
                    + "them. Package the pack again with ba-package.")
            }
            total = sum
        }
    }

    /// Refuses a path listed twice, or a file that another path uses as a folder.
    private static func checkTree(directories: [String], files: [File], source: String) throws(AssetPackFormatError) {
        var kinds: [String: String] = [:]
        for directory in directories {
            guard kinds.updateValue("folder", forKey: directory) == nil else {
                throw AssetPackFormatError(source: source, field: "directories",
                                           problem: "lists \(directory.debugDescription) twice.")
            }
        }
        for file in files {
            guard kinds.updateValue("file", forKey: file.path) == nil else {
                throw AssetPackFormatError(source: source, field: "files", problem: "lists \(file.path.debugDescription) "
                    + "twice, or as both a file and a folder; every path in a pack names one item.")
            }
        }
        for path in kinds.keys {
            var parent = Substring(path)
            while let slash = parent.lastIndex(of: "/") {
                parent = parent[..<slash]
                if kinds[String(parent)] == "file" {
                    throw AssetPackFormatError(source: source, field: "files", problem: "uses the file "
                        + "\(String(parent).debugDescription) as the folder of \(path.debugDescription).")
                }
            }
        }
    }
}
