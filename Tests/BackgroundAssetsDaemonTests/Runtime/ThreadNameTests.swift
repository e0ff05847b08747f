/*
Abstract:
Tests that the service's threads carry their names where the kernel shows them (`ps -L`, `top -H`, `perf`).
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Names of the service's threads")
struct ThreadNameTests {
    /// The kernel's name of the calling thread, as `/proc` shows it.
    static func currentKernelName() -> String? {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    @Test("A thread started with a name runs under it, cut to the kernel's 15 bytes")
    func namedThread() async throws {
        let seen = Mutex<[String?]>([])
        Thread.start(named: "log-sync") { seen.withLock { $0.append(Self.currentKernelName()) } }
        Thread.start(named: "a-name-longer-than-fifteen") { seen.withLock { $0.append(Self.currentKernelName()) } }
        try await poll(until: { seen.withLock { $0.count } == 2 }, "both threads to run")
        #expect(Set(seen.withLock { $0 }) == ["log-sync", "a-name-longer-t"])
    }

    @Test("An actor on a thread of its own runs its jobs on the thread named after it")
    func actorThread() async {
        let probe = NamedThreadProbe()
        #expect(await probe.kernelName() == "probe-thread")
    }
}

/// An actor with a thread of its own, as the queue and the stores have.
private actor NamedThreadProbe: OwnThreadActor {
    nonisolated let thread = ActorThread(name: "probe-thread")

    func kernelName() -> String? {
        ThreadNameTests.currentKernelName()
    }
}
