/*
Abstract:
Kills an installing process with SIGKILL in the middle of unpacking, and checks the old version is still whole.
*/

import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing
import TestSupport

@Suite("Killed mid-unpack", .serialized, .timeLimit(.minutes(3)))
struct KillDuringUnpackTests {
    @Test("kill -9 in the middle of unpacking an update leaves the old version current and whole")
    func killMidUnpack() async throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "packs"))
        let unpacker = AssetPackUnpacker(layout: layout)
        let oldFiles = ["a.txt": "old a", "b.txt": "old b"]
        try unpacker.install(archive: try fixture.packageFiles(oldFiles, version: 1, to: "v1.aar"))
        var newFiles: [String: String] = [:]
        for index in 0..<6 { newFiles["file\(index).txt"] = "new \(index)" }
        newFiles["a.txt"] = "new a"
        let update = try fixture.packageFiles(newFiles, version: 2, to: "v2.aar")

        let probe = try ProductsDirectory.executable(named: "asset-pack-unpack-probe")
        try await withChildProcess(executableURL: probe, arguments: [update.path, layout.root.path, "--pause-after", "3"]) { child in
            _ = try await child.waitForLine { $0 == "paused" }
            try child.signal(SIGKILL)
            _ = try await child.waitForExit()
        }

        // Three of seven files were written, into staging only.
        let staged = try FileManager.default.contentsOfDirectory(atPath: layout.stagingDirectory.path)
        #expect(staged.count == 1)
        #expect(layout.installedPacks() == ["Tutorial": 1])
        for (path, contents) in oldFiles {
            let data = try Data(contentsOf: layout.currentLink("Tutorial").appending(path: path))
            #expect(String(decoding: data, as: UTF8.self) == contents)
        }
        #expect(!FileManager.default.fileExists(atPath: layout.currentLink("Tutorial").appending(path: "file0.txt").path))
        #expect(!FileManager.default.fileExists(atPath: layout.versionDirectory("Tutorial", version: 2).path))

        // The system tidies when it starts, and the update then installs whole.
        #expect(unpacker.removeLeftovers().count == 1)
        try unpacker.install(archive: update)
        #expect(layout.installedVersion(of: "Tutorial") == 2)
        let data = try Data(contentsOf: layout.currentLink("Tutorial").appending(path: "file5.txt"))
        #expect(String(decoding: data, as: UTF8.self) == "new 5")
    }
}
