/*
Abstract:
End-to-end: processes of one app contending for withExclusiveControl never overlap, and a crashed holder releases it.
*/

import Foundation
import Testing
import TestSupport

@Suite("Share exclusive control between processes", .serialized, .timeLimit(.minutes(2)))
struct ExclusiveControlTests {
    @Test("Three processes contending for exclusive control hold it one after another")
    func contendersNeverOverlap() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let probes = try (0..<3).map { _ in try launchProbe(scenario, ["300"]) }
            defer { for probe in probes where probe.isRunning { kill(probe.pid, SIGKILL) } }
            var intervals: [(enter: UInt64, exit: UInt64)] = []
            for probe in probes {
                let status = try await probe.waitForExit(timeout: .seconds(30))
                #expect(status == .exited(0), "\(probe.standardOutput())\(probe.diagnostics())")
                intervals.append((try stamp("enter", in: probe), try stamp("exit", in: probe)))
            }
            intervals.sort { $0.enter < $1.enter }
            for (earlier, later) in zip(intervals, intervals.dropFirst()) {
                #expect(earlier.exit <= later.enter, "holders overlapped: \(intervals)")
            }
        }
    }

    @Test("A holder that crashes releases exclusive control to the next process")
    func crashedHolderReleases() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let holder = try launchProbe(scenario, ["500", "--crash"])
            defer { if holder.isRunning { kill(holder.pid, SIGKILL) } }
            _ = try await holder.waitForLine(timeout: .seconds(15)) { $0.hasPrefix("enter") }
            let waiter = try launchProbe(scenario, ["10"])
            defer { if waiter.isRunning { kill(waiter.pid, SIGKILL) } }
            #expect(try await holder.waitForExit(timeout: .seconds(15)) == .signalled(SIGKILL))
            #expect(try await waiter.waitForExit(timeout: .seconds(15)) == .exited(0), "\(waiter.diagnostics())")
            // The waiter got control only once the holder was gone: after its 500 ms hold.
            #expect(try stamp("enter", in: waiter) >= stamp("enter", in: holder) + 500_000_000)
        }
    }

    private func launchProbe(_ scenario: Scenario, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: "exclusive-control-probe"), arguments: arguments,
            environment: scenario.environment.merging(["BA_BUNDLE_IDENTIFIER": "com.example.probe"]) { $1 })
    }

    /// The monotonic time a probe printed after `word`.
    private func stamp(_ word: String, in probe: ChildProcess) throws -> UInt64 {
        let line = probe.standardOutputLines().first { $0.hasPrefix(word + " ") }
        return try #require(line.flatMap { UInt64($0.dropFirst(word.count + 1)) }, "\(probe.standardOutput())")
    }
}
