/*
Abstract:
Unit tests of the debug tool's purge command on a temporary device root.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Purge app group caches")
struct PurgeCommandTests {
    static func write(_ bytes: Int, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 7, count: bytes).write(to: url)
    }

    @Test("Purging empties every container's caches but spares files being handed over")
    func emptiesCaches() async throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let group = "group.com.example.apple-samplecode.WWDC-Sessions"
        let caches = try #require(paths.container(forAppGroup: group)).appending(path: "Library/Caches")
        try Self.write(1000, to: caches.appending(path: "Sessions/wwdc23-10108.mp4"))
        try Self.write(24, to: caches.appending(path: "manifest.json"))
        let handOver = caches.appending(path: "com.apple.BackgroundAssets/BAFile-1.tmp")
        try Self.write(5, to: handOver)
        let kept = try #require(paths.container(forAppGroup: group)).appending(path: "Library/Preferences/settings.plist")
        try Self.write(3, to: kept)

        // The tool's code runs in the test process here, which is not backgroundassets-debug's executable.
        try ServiceProcess.writeConfiguration([:], trustsClientClaims: true, in: root.url)
        let command = try PurgeCommand.parsing([])
        let transcript = ConsoleTranscript()
        #expect(try await command.run(in: ToolContext.recording(paths, into: transcript)) == .success)
        #expect(transcript.output.hasPrefix("Purged 2 file(s), 1024 bytes, from the caches of \(group)."), "\(transcript.output)")

        #expect(!FileManager.default.fileExists(atPath: caches.appending(path: "Sessions").path))
        #expect(!FileManager.default.fileExists(atPath: caches.appending(path: "manifest.json").path))
        #expect(FileManager.default.fileExists(atPath: handOver.path), "a hand-over in progress is not pulled away")
        #expect(FileManager.default.fileExists(atPath: kept.path), "only Library/Caches is purged")
        #expect(try PurgeCommand.empty(caches) == (0, 0))
    }

    @Test("An unknown or hostile app group is refused by name")
    func refusesUnknownGroups() async throws {
        let root = try TemporaryDeviceRoot()
        for group in ["group.missing", "../../etc"] {
            let command = try PurgeCommand.parsing(["--app-group", group])
            await #expect {
                try await command.run(in: ToolContext.recording(DevicePaths(root: root.url)))
            } throws: { error in
                (error as? DebugToolError)?.description.contains(group) == true
            }
        }
    }
}
