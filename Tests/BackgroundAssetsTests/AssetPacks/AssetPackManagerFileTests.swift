/*
Abstract:
Tests of reading asset files: the shared namespace, one pack's files, folders merged across packs, and bad paths.
*/

import AssetPackFormat
@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Reading files of asset packs")
struct AssetPackManagerFileTests {
    private func system() throws -> InMemoryAssetPackSystem {
        let system = try InMemoryAssetPackSystem()
        try system.install("Slides-2023", version: 1, files: ["Slides/10108.pdf": "what's new", "shared.txt": "from 2023"])
        try system.install("Slides-2022", version: 3, files: ["Slides/110403.pdf": "meet", "shared.txt": "from 2022"])
        return system
    }

    @Test("contents(at:) and descriptor(for:) read the right bytes, from any pack or from the one named")
    func readsFiles() throws {
        let manager = try system().manager()
        #expect(try manager.contents(at: "Slides/10108.pdf") == Data("what's new".utf8))
        #expect(try manager.contents(at: "shared.txt", searchingInAssetPackWithID: "Slides-2023") == Data("from 2023".utf8))
        #expect(try manager.contents(at: "./Slides/../shared.txt", searchingInAssetPackWithID: "Slides-2022") == Data("from 2022".utf8))
        let descriptor = try manager.descriptor(for: "Slides/110403.pdf")
        defer { try? descriptor.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor.rawValue, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "meet")
    }

    @Test("A missing file, a pack that is not downloaded, and paths that leave the namespace are refused")
    func refusals() throws {
        let manager = try system().manager()
        #expect(throws: ManagedBackgroundAssetsError.fileNotFound(at: "Slides/none.pdf")) {
            try manager.contents(at: "Slides/none.pdf")
        }
        #expect(throws: ManagedBackgroundAssetsError.fileNotFound(at: "Slides")) { try manager.contents(at: "Slides") }
        #expect(throws: ManagedBackgroundAssetsError.assetPackNotFound(withID: "Slides-2021")) {
            try manager.contents(at: "shared.txt", searchingInAssetPackWithID: "Slides-2021")
        }
        #expect(throws: CocoaError.self) { try manager.contents(at: "/etc/passwd") }
        #expect(throws: CocoaError.self) { try manager.contents(at: "../../Library/secret") }
        #expect(throws: CocoaError.self) { try manager.url(for: "Slides/../../x") }
    }

    @Test("url(for:) returns a file inside its pack, and a folder several packs share as one merged folder")
    func urls() throws {
        let system = try system()
        let manager = system.manager()
        let file = try manager.url(for: "Slides/10108.pdf")
        #expect(try Data(contentsOf: file) == Data("what's new".utf8))
        #expect(file.path.hasPrefix(system.layout.currentLink("Slides-2023").path))
        let folder = try manager.url(for: "Slides")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["10108.pdf", "110403.pdf"])
        #expect(try Data(contentsOf: folder.appending(path: "110403.pdf")) == Data("meet".utf8))
        let missing = try manager.url(for: "Videos/none.m4v")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    /// Calls the method Apple deprecated from its 26.4 releases, from code marked deprecated itself.
    @available(*, deprecated, message: "Calls status(ofAssetPackWithID:) on purpose.")
    private func status(_ manager: AssetPackManager, _ packID: String) async throws -> AssetPack.Status {
        try await manager.status(ofAssetPackWithID: packID)
    }

    @Test("Status combines the server's manifest with the device: available, up to date, out of date, obsolete")
    @available(*, deprecated, message: "Calls status(ofAssetPackWithID:) on purpose.")
    func status() async throws {
        let system = try system()
        system.publish([("Slides-2023", 1, .onDemand), ("Slides-2022", 4, .onDemand), ("Slides-2024", 1, .onDemand)])
        try system.install("Retired", version: 1, files: ["old.txt": "old"])
        let manager = system.manager()
        #expect(try await status(manager, "Slides-2023") == [.downloaded, .upToDate])
        #expect(try await status(manager, "Slides-2022") == [.downloaded, .outOfDate, .updateAvailable])
        #expect(try await status(manager, "Slides-2024") == [.downloadAvailable])
        #expect(try await status(manager, "Retired") == [.downloaded, .obsolete])
        await #expect(throws: ManagedBackgroundAssetsError.assetPackNotFound(withID: "Nope")) {
            try await status(manager, "Nope")
        }
        let listed = try await manager.assetPack(withID: "Slides-2022")
        #expect(try await manager.status(relativeTo: listed) == [.downloaded, .outOfDate, .updateAvailable])
        #expect(await manager.localStatus(ofAssetPackWithID: "Slides-2022") == .downloaded)
        #expect(manager.assetPackIsAvailableLocally(withID: "Slides-2023"))
        #expect(!manager.assetPackIsAvailableLocally(withID: "Slides-2024"))
    }

    @Test("Removing a pack asks the system; an unknown pack is refused")
    func remove() async throws {
        let system = try system()
        system.publish([("Slides-2023", 1, .onDemand)])
        let manager = system.manager()
        try await manager.remove(assetPackWithID: "Slides-2023")
        #expect(!manager.assetPackIsAvailableLocally(withID: "Slides-2023"))
        try await manager.remove(assetPackWithID: "Slides-2023")
        await #expect(throws: ManagedBackgroundAssetsError.assetPackNotFound(withID: "Unknown")) {
            try await manager.remove(assetPackWithID: "Unknown")
        }
        #expect(system.removals == ["Slides-2023", "Slides-2023", "Unknown"])
    }
}
