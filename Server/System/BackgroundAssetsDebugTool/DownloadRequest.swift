/*
Abstract:
What `download` was asked to do, checked up front, and the stable identifier that lets a re-run resume.
*/

import BackgroundAssetsIPC
import Foundation

/// A validated `download` command line.
struct DownloadRequest: Sendable {
    var url: String
    var output: URL
    var size: Int?
    var foreground: Bool
    /// Answers a 401; kept in memory only, as the service keeps it.
    var credential: Credential?

    /// A user name and password for an authentication challenge.
    struct Credential: Sendable, Equatable {
        var user: String
        var password: String
    }

    /// The download's identifier: the same for the same URL and output path, so running the same
    /// command again finds the download the first run left in the queue instead of starting over.
    var identifier: String {
        // FNV-1a: stable across runs and platforms, unlike Hasher, which is seeded per process.
        let hex = String(FNV1a.hash(url + "\n" + output.path), radix: 16)
        return "download-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The descriptor of a new download for this request.
    func makeDescriptor() -> DownloadDescriptor {
        DownloadDescriptor(
            identifier: identifier, uniqueIdentifier: UUID.random().uuidString, url: url, fileSize: size ?? 0,
            applicationGroupIdentifier: ToolContext.applicationGroupIdentifier)
    }

    /// Checks what `download` was given, so mistakes are reported before anything is queued.
    /// - Throws: A usage ``DebugToolError`` for a URL the service would refuse; a ``DebugToolError``
    ///   for an output path whose folder does not exist, or that is a folder.
    init(
        url: String, outputPath: String, size: Int?, foreground: Bool, credential: Credential?
    ) throws(DebugToolError) {
        if let problem = DownloadDescriptor.urlProblem(url) { throw .usage(problem) }
        self.url = url
        output = URL(fileURLWithPath: outputPath).standardizedFileURL
        var isDirectory: ObjCBool = false
        let folder = output.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DebugToolError("The folder \(folder.path) of --output does not exist; create it or choose another path.")
        }
        if FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DebugToolError("--output \(output.path) is a folder; give the path of the file to write.")
        }
        self.size = size
        self.foreground = foreground
        self.credential = credential
    }
}
