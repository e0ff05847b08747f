/*
Abstract:
Tests for the service's start order: parts start as declared and stop in reverse.
*/

@testable import BackgroundAssetsDaemon
import Testing

@Suite("The service's start order")
@ServiceActor
struct ServiceLifecycleTests {
    /// What the parts did, in order.
    final class Log {
        var entries: [String] = []
    }

    struct Refused: Error {}

    static func parts(_ names: [String], failing: String? = nil, log: Log) -> [ServicePart] {
        names.map { name in
            ServicePart(name, start: {
                log.entries.append("start \(name)")
                if name == failing { throw Refused() }
            }, stop: {
                log.entries.append("stop \(name)")
            })
        }
    }

    @Test("Parts start in the order they are declared and stop in reverse")
    func startsInOrderStopsInReverse() async throws {
        let log = Log()
        let lifecycle = ServiceLifecycle(parts: Self.parts(["apps", "queue", "routing"], log: log))
        try await lifecycle.start()
        await lifecycle.stop()
        #expect(log.entries == ["start apps", "start queue", "start routing", "stop routing", "stop queue", "stop apps"])
    }

    @Test("A part whose start fails keeps the later parts from starting, and stop still stops every part")
    func failedStartStopsEverything() async {
        let log = Log()
        let lifecycle = ServiceLifecycle(parts: Self.parts(["apps", "queue", "routing"], failing: "queue", log: log))
        await #expect(throws: Refused.self) { try await lifecycle.start() }
        #expect(log.entries == ["start apps", "start queue"])
        await lifecycle.stop()
        #expect(log.entries.suffix(3) == ["stop routing", "stop queue", "stop apps"])
    }
}
