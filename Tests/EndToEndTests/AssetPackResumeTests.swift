/*
Abstract:
End-to-end: a pack archive whose every response the server cuts resumes with Range and installs, within a run and after kill -9 of the service, with the real processes.
*/

import Foundation
import Testing
import TestSupport

@Suite("Pack archives resume within a run and after a restart, with the real processes", .serialized, .timeLimit(.minutes(3)))
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

    static let large = AssetPackInstallTests.bytes(8_000_000, seed: 22)

    /// The bytes the saved state of a pack download's arrival counts, read from the service's
    /// staging folder (`ROW.arrival`: a signature, a JSON body, a SHA-256), or 0 when there is none.
    static func savedArrivalBytes(deviceRoot: URL) -> Int64 {
        let staging = deviceRoot.appending(path: "staging")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        return names.filter { $0.hasSuffix(".arrival") }.compactMap { name -> Int64? in
            guard let bytes = try? Data(contentsOf: staging.appending(path: name)), bytes.count > 40,
                  let body = try? JSONSerialization.jsonObject(with: bytes.dropFirst(8).dropLast(32)) as? [String: Any],
                  let digester = body["digester"] as? [String: Any] else { return nil }
            return (digester["byteCount"] as? NSNumber)?.int64Value
        }.max() ?? 0
    }

    @Test("An 8 MB pack through a server that cuts every response at 3 MB installs after kill -9 of the service in the middle, going on with Range from its last checkpoint")
    func packResumesAfterKill() async throws {
        let checkpointBytes = 65_536.0
        try await withAssetPacks(configuration: ["checkpointBytes": checkpointBytes],
                                 // Paced so the kill lands between the two cuts (3.4 s of them) however busy the machine.
                                 serverArguments: ["--drop-after", "3000000", "--throttle", "800000"], prepare: { packs, folder in
            try await AssetPackScenario.package("Slides", policy: AssetPackScenario.onDemand,
                                                files: ["Slides/wwdc23-10108.pdf": Self.large], into: packs, in: folder)
        }) { device in
            _ = try await device.install()
            let app = try device.launchApp(["ensure", "Slides"])
            // In the middle of the second response: past the first cut, before the second.
            let saved = try await poll(timeout: .seconds(60), interval: .milliseconds(5), "a checkpoint past the first cut") { () -> Int64? in
                let bytes = Self.savedArrivalBytes(deviceRoot: device.scenario.deviceRoot)
                return bytes > 3_300_000 ? bytes : nil
            }
            try await device.scenario.service.kill()
            #expect(saved < 6_000_000, "killed before the second cut, at \(saved) bytes saved")

            // The app reconnects at once, starting the service, which resumes the download.
            let status = try await app.waitForExit(timeout: .seconds(90))
            #expect(status.isSuccess, "\(app.standardOutput()) \(app.standardError())")
            #expect(try Data(contentsOf: device.installedFile("Slides", "Slides/wwdc23-10108.pdf")) == Self.large)

            let archive = device.packs.appending(path: "Slides.aar")
            let archiveSize = try #require(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int)
            let gets = try device.scenario.accessEntries(for: "/Slides.aar").filter { $0.method == "GET" }
            let starts = gets.map { entry in entry.range.flatMap { Int64($0.dropFirst(6).dropLast()) } ?? 0 }
            #expect(starts.first == 0 && starts.dropFirst().allSatisfy { $0 > 0 }, "only the first request starts at zero: \(gets)")
            // The request after the kill asks for the bytes after the last checkpoint the killed service saved.
            #expect(starts.count >= 3 && starts[2] >= saved, "the first request after the kill: \(gets)")
            let served = gets.reduce(0) { $0 + $1.bytes }
            #expect(Double(served) <= 1.1 * Double(archiveSize) + checkpointBytes,
                    "served \(served) bytes for an archive of \(archiveSize): \(gets)")
            let trace = try String(contentsOf: device.scenario.deviceRoot.appending(path: "system/trace.jsonl"), encoding: .utf8)
            #expect(!trace.contains("assetPackFetchedAgain"), "nothing was fetched again")
        }
    }
}
