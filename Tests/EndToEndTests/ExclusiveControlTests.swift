/*
Abstract:
End-to-end: processes of one app contending for withExclusiveControl never overlap, and a crashed holder releases it.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Share exclusive control between processes", .serialized, .timeLimit(.minutes(2)))
struct ExclusiveControlTests {
    @Test("Three processes contending for exclusive control hold it one after another")
    func contendersNeverOverlap() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let probes = try (0..<3).map { _ in try launchProbe(scenario, ["--until-sigusr1"]) }
            defer { for probe in probes where probe.isRunning { kill(probe.pid, SIGKILL) } }
            var released: [ChildProcess] = []
            for turn in 1...3 {
                let holder = try await poll("a probe to hold control, turn \(turn)") {
                    probes.first { probe in !released.contains { $0 === probe } && printed("enter", probe) != nil }
                }
                let waiting = probes.filter { probe in probe !== holder && !released.contains { $0 === probe } }
                // The others have asked: the service has their connections, and their requests follow.
                try await poll(until: { waiting.allSatisfy { isConnected($0, scenario) } },
                               "the other probes to ask for control")
                // However long this one holds, nobody else has control.
                for other in waiting {
                    #expect(printed("enter", other) == nil, "\(other.name) entered while \(holder.name) held control")
                }
                try holder.signal(SIGUSR1)
                #expect(try await holder.waitForExit() == .exited(0),
                        "\(holder.standardOutput())\(holder.diagnostics())")
                released.append(holder)
            }
            let intervals = try probes.map { (enter: try stamp("enter", in: $0), exit: try stamp("exit", in: $0)) }
                .sorted { $0.enter < $1.enter }
            for (earlier, later) in zip(intervals, intervals.dropFirst()) {
                #expect(earlier.exit <= later.enter, "holders overlapped: \(intervals)")
            }
        }
    }

    @Test("A holder that crashes releases exclusive control to the next process")
    func crashedHolderReleases() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let holder = try launchProbe(scenario, ["--until-sigusr1", "--crash"])
            defer { if holder.isRunning { kill(holder.pid, SIGKILL) } }
            _ = try await holder.waitForLine { $0.hasPrefix("enter") }
            let waiter = try launchProbe(scenario, ["--until-sigusr1"])
            defer { if waiter.isRunning { kill(waiter.pid, SIGKILL) } }
            try await poll(until: { isConnected(waiter, scenario) }, "the waiter to ask")
            #expect(printed("enter", waiter) == nil, "the waiter entered while the holder held control")

            let crashed = monotonicNow()
            try holder.signal(SIGUSR1)
            #expect(try await holder.waitForExit() == .signalled(SIGKILL))
            _ = try await waiter.waitForLine { $0.hasPrefix("enter") }
            // The waiter got control only once the holder was gone.
            #expect(try stamp("enter", in: waiter) >= crashed)
            try waiter.signal(SIGUSR1)
            #expect(try await waiter.waitForExit() == .exited(0), "\(waiter.diagnostics())")
        }
    }

    private func launchProbe(_ scenario: Scenario, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: "exclusive-control-probe"), arguments: arguments,
            environment: scenario.environment.merging(["BA_BUNDLE_IDENTIFIER": "com.example.probe"]) { $1 })
    }

    /// Whether the service has accepted the probe's connection, which it asks for control on next.
    private func isConnected(_ probe: ChildProcess, _ scenario: Scenario) -> Bool {
        let trace = scenario.deviceRoot.appending(path: "system/trace.jsonl")
        return TraceEntry.entries(in: (try? Data(contentsOf: trace)) ?? Data())
            .contains { $0.event == "connected" && $0.detail == "pid \(probe.pid)" }
    }

    /// The monotonic time a probe printed after `word`, failing the test when it printed none.
    private func stamp(_ word: String, in probe: ChildProcess) throws -> UInt64 {
        try #require(printed(word, probe), "\(probe.standardOutput())")
    }

    /// The monotonic time a probe printed after `word`, or `nil` while it has not.
    private func printed(_ word: String, _ probe: ChildProcess) -> UInt64? {
        let line = probe.standardOutputLines().first { $0.hasPrefix(word + " ") }
        return line.flatMap { UInt64($0.dropFirst(word.count + 1)) }
    }

    /// CLOCK_MONOTONIC in nanoseconds, the clock the probes print.
    private func monotonicNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
