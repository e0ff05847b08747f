/*
Abstract:
Unit tests of installing packs: atomic replacement, refusals that leave the old version whole, removal and tidying.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing

@Suite("Installing packs atomically")
struct UnpackerTests {
    private func read(_ layout: AssetPackContainerLayout, _ packID: String, _ path: String) -> String? {
        (try? Data(contentsOf: layout.currentLink(packID).appending(path: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("A new version replaces the old one whole, and the old version's folder is gone afterwards")
    func replacesVersions() throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "container/packs"))
        let unpacker = AssetPackUnpacker(layout: layout)
        let v1 = try fixture.packageFiles(["a.txt": "one", "dir/b.txt": "bee"], version: 1, to: "v1.aar")
        let v2 = try fixture.packageFiles(["a.txt": "two", "c.txt": "sea"], version: 2, to: "v2.aar")
        let first = try unpacker.install(archive: v1, expecting: .init(packID: "Tutorial", version: 1))
        #expect(first.replacedVersion == nil)
        #expect(layout.installedVersion(of: "Tutorial") == 1)
        #expect(read(layout, "Tutorial", "dir/b.txt") == "bee")
        let second = try unpacker.install(archive: v2)
        #expect(second.replacedVersion == 1)
        #expect(second.installSize == 6)
        #expect(layout.installedPacks() == ["Tutorial": 2])
        #expect(read(layout, "Tutorial", "a.txt") == "two")
        #expect(read(layout, "Tutorial", "dir/b.txt") == nil)
        #expect(!FileManager.default.fileExists(atPath: layout.versionDirectory("Tutorial", version: 1).path))
        #expect(unpacker.removeLeftovers().isEmpty)
    }

    @Test("Installing the current version again changes nothing")
    func sameVersionAgain() throws {
        let fixture = try PackFixture()
        let unpacker = AssetPackUnpacker(layout: AssetPackContainerLayout(root: fixture.root.appending(path: "packs")))
        let archive = try fixture.packageFiles(["a.txt": "one"], to: "v1.aar")
        try unpacker.install(archive: archive)
        #expect(try unpacker.install(archive: archive).wasAlreadyInstalled)
        #expect(unpacker.layout.installedVersion(of: "Tutorial") == 1)
    }

    @Test("A tampered update, or the wrong pack, is refused and the old version stays current and whole")
    func refusalKeepsOldVersion() throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "packs"))
        let unpacker = AssetPackUnpacker(layout: layout)
        try unpacker.install(archive: try fixture.packageFiles(["a.txt": "one"], version: 1, to: "v1.aar"))
        let v2 = try fixture.packageFiles(["a.txt": "two-two-two"], version: 2, to: "v2.aar")

        #expect(throws: AssetPackArchiveError.self) {
            try unpacker.install(archive: v2, expecting: .init(packID: "Tutorial", version: 3))
        }
        #expect(throws: AssetPackArchiveError.self) {
            try unpacker.install(archive: v2, expecting: .init(packID: "Tutorial", version: 2, sha256: String(repeating: "0", count: 64)))
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: v2.path)[.size] as? Int)
        try fixture.flipByte(of: v2, at: size - 40)
        do {
            try unpacker.install(archive: v2)
            Issue.record("A tampered archive was installed.")
        } catch {
            #expect(error.kind == .tampered)
            #expect(error.problem.contains("a.txt"))
        }
        #expect(layout.installedVersion(of: "Tutorial") == 1)
        #expect(read(layout, "Tutorial", "a.txt") == "one")
        let staged = (try? FileManager.default.contentsOfDirectory(atPath: layout.stagingDirectory.path)) ?? []
        #expect(staged.isEmpty, "a refused install left \(staged)")
    }

    @Test("Removing a pack makes it disappear at once and frees its files")
    func removes() throws {
        let fixture = try PackFixture()
        let unpacker = AssetPackUnpacker(layout: AssetPackContainerLayout(root: fixture.root.appending(path: "packs")))
        try unpacker.install(archive: try fixture.packageFiles(["a.txt": String(repeating: "x", count: 10_000)], to: "v1.aar"))
        #expect(unpacker.diskUsage(of: "Tutorial") >= 10_000)
        #expect(try unpacker.remove(packID: "Tutorial"))
        #expect(unpacker.layout.installedVersion(of: "Tutorial") == nil)
        #expect(unpacker.diskUsage(of: "Tutorial") == 0)
        #expect(try unpacker.remove(packID: "Tutorial") == false)
        #expect(try unpacker.remove(packID: "../etc") == false)
    }

    @Test("Leftovers of interrupted work are removed, and the current version is kept")
    func removesLeftovers() throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "packs"))
        let unpacker = AssetPackUnpacker(layout: layout)
        try unpacker.install(archive: try fixture.packageFiles(["a.txt": "one"], to: "v1.aar"))
        let manager = FileManager.default
        try manager.createDirectory(at: layout.stagingDirectory.appending(path: "Tutorial.v2.x/dir"), withIntermediateDirectories: true)
        try manager.createDirectory(at: layout.versionDirectory("Tutorial", version: 2), withIntermediateDirectories: true)
        try manager.createDirectory(at: layout.packDirectory("Orphan").appending(path: "v1"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: layout.packDirectory("Tutorial").appending(path: ".current.tmp").path,
                                       withDestinationPath: "v2")
        #expect(unpacker.removeLeftovers() == [".staging/Tutorial.v2.x", "Orphan", "Tutorial/.current.tmp", "Tutorial/v2"])
        #expect(layout.installedPacks() == ["Tutorial": 1])
        #expect(read(layout, "Tutorial", "a.txt") == "one")
    }

    @Test("A link planted among the packs' folders is refused by name, and nothing is written where it leads",
          arguments: [".staging", "Tutorial"])
    func linkInsideTheLayout(linked: String) throws {
        let fixture = try PackFixture()
        let outside = fixture.root.appending(path: "outside", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "container/packs"))
        try FileManager.default.createDirectory(at: layout.root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: layout.root.appending(path: linked), withDestinationURL: outside)
        let archive = try fixture.packageFiles(["a.txt": "one"], version: 1, to: "v1.aar")

        #expect {
            try AssetPackUnpacker(layout: layout).install(archive: archive, expecting: .init(packID: "Tutorial", version: 1))
        } throws: { error in
            "\(error)".contains("symbolic link")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "written through the link")
    }
}
