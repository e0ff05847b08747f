/*
Abstract:
Tests of the activities a part runs in its owner's isolation: its own timers and readers, with no event sent out and back.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

/// An owner whose part keeps state only the owner's executor may touch, as the service's hosts do.
private actor Owner {
    /// A part confined to the owner, like a host: not `Sendable`, reached only from the owner.
    final class Part {
        var reports: [String] = []
        let activities: ServiceActivities
        let owner: Owner

        init(activities: ServiceActivities, owner: Owner) {
            self.activities = activities
            self.owner = owner
        }

        /// Reads the feed and sets a timer, both calling the part back on its owner.
        func start(feed: AsyncStream<String>, isolation: isolated (any Actor)? = #isolation) {
            activities.runIsolated("reader") { [weak self] in
                for await line in feed { self?.record(line) }
            }
            activities.afterIsolated(.seconds(5), "timer") { [weak self] in self?.record("timer") }
        }

        func record(_ line: String) {
            // The runtime's own check, which traps off the owner's executor: what the isolation promises.
            owner.preconditionIsolated("a part's activity ran off its owner's executor")
            reports.append(line)
        }
    }

    private var part: Part?

    func start(activities: ServiceActivities, feed: AsyncStream<String>) {
        let part = Part(activities: activities, owner: self)
        self.part = part
        part.start(feed: feed)
    }

    var reports: [String] { part?.reports ?? [] }
}

@Suite("Activities in their owner's isolation")
struct ServiceActivitiesIsolationTests {
    @Test("A part's reader and timer run on its owner's executor and call the part back directly, in order")
    func readerAndTimerRunOnTheOwner() async throws {
        let clock = ManualClock()
        let activities = ServiceActivities(wallClock: clock)
        let owner = Owner()
        let (feed, lines) = AsyncStream<String>.makeStream()
        await owner.start(activities: activities, feed: feed)
        lines.yield("first")
        lines.yield("second")
        try await poll(until: { await owner.reports == ["first", "second"] }, "the reader to take both lines")
        clock.advance(by: .seconds(5))
        try await poll(until: { await owner.reports.last == "timer" }, "the timer to fire")
        #expect(await owner.reports == ["first", "second", "timer"])
        lines.finish()
        await activities.shutdown()
        #expect(activities.runningNames == [], "nothing runs after the shutdown")
    }

    @Test("The shutdown cancels a part's timer before it fires and waits for its reader to end")
    func shutdownEndsIsolatedActivities() async throws {
        let clock = ManualClock()
        let activities = ServiceActivities(wallClock: clock)
        let owner = Owner()
        let (feed, _) = AsyncStream<String>.makeStream()
        await owner.start(activities: activities, feed: feed)
        #expect(activities.runningNames == ["reader", "timer"])
        await activities.shutdown()
        #expect(activities.runningNames == [])
        clock.advance(by: .seconds(5))
        #expect(await owner.reports == [], "the timer never fired")
        activities.runIsolated("late") {}
        #expect(activities.runningNames == [], "nothing starts after the shutdown")
    }
}
