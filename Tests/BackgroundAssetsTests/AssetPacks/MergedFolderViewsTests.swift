/*
Abstract:
Tests of the folders url(for:) merges from several packs: one per set of pack versions, none left behind by ended processes.
*/

import AssetPackFormat
@testable import BackgroundAssets
import Foundation
import Testing
import TestSupport

@Suite("Merged folders of asset packs")
struct MergedFolderViewsTests {
    private static func system() throws -> InMemoryAssetPackSystem {
        let system = try InMemoryAssetPackSystem()
        try system.install("Slides-2023", version: 1, files: ["Slides/10108.pdf": "what's new"])
        try system.install("Slides-2022", version: 3, files: ["Slides/110403.pdf": "meet"])
        return system
    }

    private static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("The same folder of the same pack versions is one view; a new version gets a view of its own")
    func reusesViews() throws {
        let system = try Self.system()
        let temporary = try TemporaryDirectory(prefix: "merged-views")
        let resolver = AssetPackFileResolver(layout: system.layout, views: MergedFolderViews(temporaryDirectory: temporary.url))

        let first = try resolver.url(for: "Slides")
        #expect(try resolver.url(for: "Slides") == first)
        #expect(try resolver.url(for: "./Slides") == first)
        // One folder for the process, holding the one view.
        let ownFolders = try Self.names(in: temporary.url)
        #expect(ownFolders.count == 1)
        #expect(ownFolders.first.flatMap(MergedFolderViews.processIdentifier(ofFolderNamed:)) == getpid())

        try system.install("Slides-2023", version: 2, files: ["Slides/10108.pdf": "what's new", "Slides/10109.pdf": "more"])
        let updated = try resolver.url(for: "Slides")
        #expect(updated != first)
        #expect(try Self.names(in: updated) == ["10108.pdf", "10109.pdf", "110403.pdf"])
        #expect(try Self.names(in: first) == ["10108.pdf", "110403.pdf"])

        // A view someone deleted is made again, not returned empty.
        try FileManager.default.removeItem(at: updated)
        #expect(try Self.names(in: resolver.url(for: "Slides")) == ["10108.pdf", "10109.pdf", "110403.pdf"])
    }

    @Test("Views of a process that no longer runs are removed by the next one; a running one's are kept")
    func removesEndedProcessesViews() throws {
        let temporary = try TemporaryDirectory(prefix: "merged-views")
        // No process has an identifier above the kernel's largest; pid 1 always runs.
        let maximum = (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4_194_304
        let ended = temporary.url.appending(path: "BackgroundAssets-\(maximum + 1)-\(UUID().uuidString)")
        let running = temporary.url.appending(path: "BackgroundAssets-1-\(UUID().uuidString)")
        let unrelated = temporary.url.appending(path: "BackgroundAssets-notes")
        for folder in [ended, running, unrelated] {
            try FileManager.default.createDirectory(at: folder.appending(path: "1/Slides"), withIntermediateDirectories: true)
        }

        let views = MergedFolderViews(temporaryDirectory: temporary.url)
        let system = try Self.system()
        let view = try AssetPackFileResolver(layout: system.layout, views: views).url(for: "Slides")

        #expect(!FileManager.default.fileExists(atPath: ended.path))
        #expect(FileManager.default.fileExists(atPath: running.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
        #expect(FileManager.default.fileExists(atPath: view.path))

        // What the process does when it exits.
        views.removeOwnFolder()
        #expect(!FileManager.default.fileExists(atPath: view.path))
        #expect(try Self.names(in: temporary.url).count == 2)
    }
}
