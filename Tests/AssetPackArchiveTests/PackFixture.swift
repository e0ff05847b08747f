/*
Abstract:
Builds folders, packaging manifests and archives for the asset-pack tests, including deliberately broken ones.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import TestSupport

/// A temporary folder to package packs in, with helpers to write files and archives.
final class PackFixture: Sendable {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "asset-packs")
    }

    var root: URL { directory.url }

    /// Writes a file under the fixture's folder, creating its folders.
    @discardableResult
    func write(_ contents: String, to path: String) throws -> URL {
        let url = root.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
        return url
    }

    /// Writes a packaging manifest and packages it from the fixture's folder.
    @discardableResult
    func package(_ manifest: String, named name: String = "Manifest.json", to archive: String) throws -> AssetPackArchiveHeader {
        let manifestURL = try write(manifest, to: name)
        return try AssetPackPackager.package(manifest: manifestURL, workingDirectory: root, output: root.appending(path: archive))
    }

    /// Packages `files` (path to contents) as one pack version.
    @discardableResult
    func packageFiles(_ files: [String: String], id: String = "Tutorial", version: Int = 1,
                      policy: String = #"{ "onDemand": {} }"#, to archive: String) throws -> URL {
        let source = "source-\(id)-\(version)"
        for (path, contents) in files { try write(contents, to: "\(source)/\(path)") }
        let selectors = files.keys.sorted().map { #"{ "file": "\#($0)" }"# }.joined(separator: ", ")
        let manifest = #"{ "assetPackID": "\#(id)", "version": \#(version), "downloadPolicy": \#(policy), "fileSelectors": [\#(selectors)] }"#
        let manifestURL = try write(manifest, to: "\(source)/Manifest.json")
        let output = root.appending(path: archive)
        try AssetPackPackager.package(manifest: manifestURL, workingDirectory: root.appending(path: source), output: output)
        return output
    }

    /// Writes an archive byte by byte from a header's JSON and the files' bytes, sealed correctly,
    /// so tests can present headers no packager would write.
    func rawArchive(header: String, contents: [UInt8], to name: String) throws -> URL {
        let headerBytes = Array(header.utf8)
        let sealed = AssetPackArchiveFormat.prefix(headerLength: headerBytes.count) + headerBytes
        var digest = ArchiveDigest()
        digest.update(sealed)
        let url = root.appending(path: name)
        try Data(sealed + contents + digest.finalizeBytes()).write(to: url)
        return url
    }

    /// Changes one byte of a file in place.
    func flipByte(of url: URL, at offset: Int) throws {
        var bytes = try Data(contentsOf: url)
        bytes[offset] ^= 0x5A
        try bytes.write(to: url)
    }

    /// The SHA-256 of a string, as the header lists it.
    static func sha256(_ string: String) -> String {
        var digest = ArchiveDigest()
        digest.update(Array(string.utf8))
        return digest.finalize()
    }
}

extension AssetPackArchiveError.Kind {
    /// Whether `error` is an archive error of this kind.
    func matches(_ error: any Error) -> Bool {
        (error as? AssetPackArchiveError)?.kind == self
    }
}
