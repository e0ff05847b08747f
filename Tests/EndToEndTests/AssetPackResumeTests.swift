/*
Abstract:
End-to-end: a pack archive whose every response the server cuts resumes with Range and installs, with the real processes.
*/

import Foundation
import Testing
import TestSupport

@Suite("Pack archives resume within a run, with the real processes", .serialized, .timeLimit(.minutes(3)))
struct AssetPackResumeTests {
    static let slides = AssetPackInstallTests.bytes(2_000_000, seed: 21)

    @Test("A 2 MB pack through a server that cuts every response at 700 KB installs, resuming each time from the bytes stored")
    func packResumesAfterEveryCut() async throws {
        try await withAssetPacks(serverArguments: ["--drop-after", "700000"], prepare: { packs, folder in
            try await AssetPackScenario.package("Slides", policy: AssetPackScenario.onDemand,
                                                files: ["Slides/wwdc23-10108.pdf": Self.slides], into: packs, in: folder)
        }) { device in
            _ = try await device.install()
            let lines = try await device.app(["ensure", "Slides"])
            #expect(lines.last == "available Slides true", "\(lines)")
            #expect(try Data(contentsOf: device.installedFile("Slides", "Slides/wwdc23-10108.pdf")) == Self.slides)

            // Every request after the first asks for the bytes after the ones already received.
            let archive = device.packs.appending(path: "Slides.aar")
            let archiveSize = try #require(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int)
            let gets = try device.scenario.accessEntries(for: "/Slides.aar").filter { $0.method == "GET" }
            var received: Int64 = 0
            for entry in gets {
                #expect(entry.range == (received == 0 ? nil : "bytes=\(received)-"), "after \(received) bytes: \(gets)")
                received += entry.bytes
            }
            #expect(gets.count == 3, "\(gets)")
            let served = gets.reduce(0) { $0 + $1.bytes }
            #expect(Double(served) <= 1.1 * Double(archiveSize), "served \(served) bytes for an archive of \(archiveSize)")
        }
    }
}
