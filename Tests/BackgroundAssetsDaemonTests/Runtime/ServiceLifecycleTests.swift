/*
Abstract:
Tests for the service's start order: parts start as declared and stop in reverse.
*/

@testable import BackgroundAssetsDaemon
import Testing

@Suite("The service's start order")
struct ServiceLifecycleTests {
    /// The owner the parts run on, and what they did, in order.
    actor Log {
        var entries: [String] = []

        func append(_ entry: String) {
            entries.append(entry)
        }
    }

    struct Refused: Error {}

    static func parts(_ names: [String], failing: String? = nil) -> [ServicePart<Log>] {
        names.map { name in
            ServicePart(name, start: { log in
                log.append("start \(name)")
                if name == failing { throw Refused() }
            }, stop: { log in
                log.append("stop \(name)")
            })
        }
    }

    @Test("Parts start in the order they are declared and stop in reverse")
    func startsInOrderStopsInReverse() async throws {
        let log = Log()
        let lifecycle = ServiceLifecycle(parts: Self.parts(["apps", "queue", "routing"]))
        try await lifecycle.start(log)
        await lifecycle.stop(log)
        #expect(await log.entries == ["start apps", "start queue", "start routing", "stop routing", "stop queue", "stop apps"])
    }

    @Test("A part whose start fails keeps the later parts from starting, and stop still stops every part")
    func failedStartStopsEverything() async {
        let log = Log()
        let lifecycle = ServiceLifecycle(parts: Self.parts(["apps", "queue", "routing"], failing: "queue"))
        await #expect(throws: Refused.self) { try await lifecycle.start(log) }
        #expect(await log.entries == ["start apps", "start queue"])
        await lifecycle.stop(log)
        #expect(await log.entries.suffix(3) == ["stop routing", "stop queue", "stop apps"])
    }
}
