/*
Abstract:
End-to-end chaos: the service is killed with SIGKILL three times during the sample's downloads and the app's runs.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Survive a crashing service")
    struct ChaosTests {
        /// Six sessions of about 4 MiB through a server throttled to 1 MiB/s per connection: slow
        /// enough that every kill lands in the middle of transfers, fast enough for a short test.
        /// Each kill costs what the server had sent but the service had not read yet (about 0.1 s
        /// of throttled bytes per connection, up to six connections); larger files keep that within
        /// the 10% the test allows.
        static let sessionSize = 4 << 20

        @Test("Three kills of the service mid-transfer: every file byte-exact, nothing stuck, at most 1.10x the catalog served")
        func threeKills() async throws {
            // CHAOS_SEED replays a run; the seed is printed with every failure.
            let seed = ProcessInfo.processInfo.environment["CHAOS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...1 << 48)
            var random = SeededRandom(seed: seed)
            // The default checkpoints (64 MiB or 1 s): a kill must not cost what was received since the last one.
            let configuration = sampleConfiguration.merging(["checkpointBytes": 67_108_864, "checkpointInterval": 1]) { $1 }
            let scenario = try Scenario()
            let root = scenario.deviceRoot
            try ServiceProcess.writeConfiguration(configuration, in: root)
            // No service started by the test: every one is started on demand by a client, as on a
            // device, so each kill is of a service the test does not own.
            try await withAssetServer(
                sessions: 6, sessionSize: Self.sessionSize,
                arguments: ["--access-log", scenario.accessLog.path, "--throttle", "1048576"]
            ) { server in
                let device = SampleDevice(scenario: scenario, server: server)
                do {
                    try await Self.run(device, seed: seed, random: &random)
                } catch {
                    await ServiceProcess.killAll(in: root)
                    killExtensions(of: root)
                    throw error
                }
                await ServiceProcess.killAll(in: root)
                killExtensions(of: root)
            }
        }

        /// The scenario: install, kill, two app runs with a kill each, then runs until everything is in place.
        static func run(_ device: SampleDevice, seed: UInt64, random: inout SeededRandom) async throws {
            do {
                let root = device.scenario.deviceRoot
                let catalog = try device.catalog()
                try await device.install()

                // Kill 1: while the background downloads the install scheduled are running.
                var kills = try await Self.killMidTransfer(root, at: Double.random(in: 0.1...0.8, using: &random)) ? 1 : 0
                // Kills 2 and 3: while the app runs and follows the downloads; each run may end early.
                for _ in 0..<2 {
                    let app = try ChildProcess.launch(
                        executableURL: try ProductsDirectory.executable(named: "wwdc-sessions"),
                        arguments: device.appArguments(timeout: 10), environment: device.scenario.environment)
                    // Not runScoped: an app whose service died under it may end with an error, which
                    // is not what this test is about; the final runs below must complete.
                    do {
                        if try await Self.killMidTransfer(root, at: Double.random(in: 0.1...0.8, using: &random)) { kills += 1 }
                        _ = try await app.waitForExit(timeout: .seconds(25))
                    } catch {
                        await app.terminate()
                        throw error
                    }
                    await app.terminate()
                }
                // Then the app runs until every session is settled.
                for _ in 0..<3 where try await device.verifiedSessions(of: catalog).count < catalog.count {
                    _ = try await device.runApp(timeout: 20)
                }

                #expect(kills >= 2, "seed \(seed): the kills must land mid-transfer, only \(kills) did")
                let verified = try await device.verifiedSessions(of: catalog)
                #expect(verified == Set(catalog.map(\.id)), "seed \(seed): verified \(verified.sorted())")
                let unfinished = try await statusDownloads(device.scenario).filter { download in
                    let state = (download["download"] as? [String: Any])?["state"] as? Int
                    return state != DownloadDescriptor.State.finished.rawValue
                }
                #expect(unfinished.isEmpty, "seed \(seed): stuck downloads \(unfinished)")
                let paths = Set(catalog.map(\.path))
                let served = try device.accessLog().filter { paths.contains($0.path) }.reduce(0) { $0 + $1.bytes }
                let total = catalog.reduce(0) { $0 + Int64($1.size) }
                let ratio = Double(served) / Double(total)
                print("chaos seed \(seed): \(kills) kills, served \(served) of \(total) bytes (\(String(format: "%.3f", ratio))x)")
                #expect(ratio <= 1.10, "seed \(seed): served \(served) bytes for a catalog of \(total)")
            }
        }

        /// Waits until some staging file holds `fraction` of a session, then kills the service with
        /// SIGKILL. Returns false when no transfer got that far (everything had finished).
        static func killMidTransfer(_ root: URL, at fraction: Double) async throws -> Bool {
            let staging = root.appendingPathComponent("staging", isDirectory: true)
            let threshold = Int64(Double(sessionSize) * fraction)
            let reached = try? await poll(timeout: .seconds(20), interval: .milliseconds(10), "a transfer at \(threshold) bytes") {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
                return names.contains { name in
                    var status = stat()
                    guard name.hasSuffix(".part"), stat(staging.appendingPathComponent(name).path, &status) == 0 else { return false }
                    return Int64(status.st_size) >= threshold && Int64(status.st_size) < Int64(sessionSize)
                } ? true : nil
            }
            guard reached == true else { return false }
            await ServiceProcess.killAll(in: root)
            return true
        }
    }
}

/// SplitMix64: a small seeded generator, so a chaos run can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
