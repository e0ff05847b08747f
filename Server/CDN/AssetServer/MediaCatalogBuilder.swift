/*
Abstract:
Builds a manifest for a folder of real videos: identifiers from file names, sizes and SHA-256 from the files.
*/

import Foundation
import SessionKit

/// Describes a folder of existing media files with a manifest.
enum MediaCatalogBuilder {
    /// The extensions treated as session videos.
    static let mediaExtensions: Set<String> = ["mp4", "mov", "m4v", "mp3", "m4a", "aac", "wav"]

    /// The media files under `directory`, as sorted relative paths; hidden files and folders, symlinks and the
    /// uploads folder are skipped.
    static func mediaFiles(in directory: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            let type = enumerator.fileAttributes?[.type] as? FileAttributeType
            // Hidden files, and what clients uploaded, are not the catalog's to serve as sessions.
            if (path as NSString).lastPathComponent.hasPrefix(".") || path == UploadFolder.folderName {
                if type == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            if type == .typeRegular, mediaExtensions.contains((path as NSString).pathExtension.lowercased()) {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// A manifest listing `files` (relative to `directory`), the first two marked essential like a generated one.
    static func manifest(for files: [String], in directory: URL) throws -> Manifest {
        var used: Set<String> = []
        var sessions: [Session] = []
        for (index, path) in files.enumerated() {
            let url = directory.appending(path: path)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let baseName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            var id = identifier(from: baseName)
            var suffix = 2
            while used.contains(id) {
                id = "\(identifier(from: baseName).prefix(120))-\(suffix)"
                suffix += 1
            }
            used.insert(id)
            let relative = path.split(separator: "/").map { percentEncoded(String($0)) }.joined(separator: "/")
            sessions.append(Session(
                id: id,
                title: baseName.replacingOccurrences(of: "_", with: " "),
                url: URL(string: relative)!,
                fileSize: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                sha256: try SHA256.hexDigest(ofFileAt: url),
                essential: index < 2))
        }
        return Manifest(version: 1, sessions: sessions)
    }

    /// A session identifier from a file name: characters outside `[A-Za-z0-9._-]` become `-`.
    static func identifier(from name: String) -> String {
        var result = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": scalar
            default: "-"
            }
        }).prefix(128))
        // Identifiers may not start with a dot: they name files, and hidden files are easy to lose.
        while result.hasPrefix(".") { result.removeFirst() }
        return result.isEmpty ? "session" : result
    }

    /// Percent-encodes a path component strictly, so names with spaces, colons or `%` stay relative URLs.
    static func percentEncoded(_ component: String) -> String {
        var allowed = CharacterSet()
        allowed.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return component.addingPercentEncoding(withAllowedCharacters: allowed) ?? component
    }
}
