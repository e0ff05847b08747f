/*
Abstract:
Reads the game-data archive: checks its SHA-256 against the version file, then writes its files into a folder.
*/

import Foundation
import SessionKit

/// The game-data archive, in the workspace's asset-pack archive format: an 8-byte magic number, the
/// header's length (4 bytes, big-endian), the header (JSON listing each file's path and size), the
/// files' bytes in that order, and a 32-byte digest.
///
/// - Note: On Apple platforms a game would ship Apple Archive and extract it with the AppleArchive
///   framework; the checks and the atomic switch in ``GameData`` stay the same.
struct GameArchive {
    private struct Header: Decodable {
        struct File: Decodable {
            var path: String
            var size: Int64
        }
        var directories: [String]
        var files: [File]
    }

    static let magic = Data([0x89, 0x42, 0x41, 0x50, 0x41, 0x43, 0x4B, 0x0A])

    let url: URL

    /// The SHA-256 of the whole file, as the version file lists it.
    func sha256() throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
        }
        return hash.finalize()
    }

    /// Writes every file of the archive under `folder`, which must be empty.
    /// - Throws: `GameError.container` naming what is wrong with the archive, or a file error.
    func extract(into folder: URL) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        guard try handle.read(upToCount: 8) == Self.magic, let length = try handle.read(upToCount: 4), length.count == 4 else {
            throw GameError.container("\(url.lastPathComponent) is not a game-data archive")
        }
        let headerLength = length.reduce(0) { $0 << 8 | Int($1) }
        guard headerLength <= 16 << 20, let json = try handle.read(upToCount: headerLength), json.count == headerLength,
              let header = try? JSONDecoder().decode(Header.self, from: json)
        else { throw GameError.container("the header of \(url.lastPathComponent) cannot be read") }
        for directory in header.directories {
            try FileManager.default.createDirectory(at: try place(directory, in: folder), withIntermediateDirectories: true)
        }
        for file in header.files {
            let destination = try place(file.path, in: folder)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
                throw GameError.container("\(destination.path) cannot be created")
            }
            let output = try FileHandle(forWritingTo: destination)
            defer { try? output.close() }
            var left = file.size
            while left > 0 {
                guard let chunk = try handle.read(upToCount: Int(min(left, 1 << 20))), !chunk.isEmpty else {
                    throw GameError.container("\(url.lastPathComponent) ends inside \(file.path)")
                }
                try output.write(contentsOf: chunk)
                left -= Int64(chunk.count)
            }
            // Durable before the switch makes it visible.
            try output.synchronize()
        }
    }

    /// A path of the archive inside `folder`, refusing one that would leave it.
    private func place(_ path: String, in folder: URL) throws -> URL {
        let parts = path.split(separator: "/")
        guard !path.hasPrefix("/"), !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else {
            throw GameError.container("\(url.lastPathComponent) names the path \(path.debugDescription), outside its folder")
        }
        return folder.appending(path: path)
    }
}
