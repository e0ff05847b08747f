/*
Abstract:
Tests of the service's timers: a delay counts from when it was set, however late its task starts, and a date is a date.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Timers of the service's activities")
struct ServiceActivitiesTimerTests {
    @Test("A timer set for 10 s fires once the clock has moved 10 s from when it was set, even if the clock moved before its task ran")
    func delayCountsFromTheCall() async throws {
        let clock = ManualClock()
        let activities = ServiceActivities(wallClock: clock)
        let fired = Mutex(false)
        // Kept: an activity let go of is cancelled.
        let timer = activities.after(.seconds(10), "timer") { fired.withLock { $0 = true } }
        // Straight away, before the activity's task may have run at all, as a test's next line does.
        clock.advance(by: .seconds(10))
        try await poll(until: { fired.withLock { $0 } }, "the timer to fire")

        let early = Mutex(false)
        let second = activities.after(.seconds(10), "second timer") { early.withLock { $0 = true } }
        clock.advance(by: .seconds(9))
        // The timer waits for the one second left, and has not fired.
        try await poll(until: {
            clock.pendingDeadlines.count == 1 && abs((clock.pendingDeadlines[0] - .seconds(1)) / .milliseconds(1)) < 1
        }, "the timer to wait for the 1 s left")
        #expect(!early.withLock { $0 }, "not before its 10 s")
        clock.advance(by: .seconds(1))
        try await poll(until: { early.withLock { $0 } }, "the second timer to fire")
        withExtendedLifetime((timer, second)) {}
        await activities.shutdown()
    }

    @Test("A timer set for a date fires once the clock shows it, even when the clock passed it before the timer was set")
    func dateIsTheDeadline() async throws {
        let clock = ManualClock()
        let activities = ServiceActivities(wallClock: clock)
        // A caller reads the clock and decides on a date; the clock moves past it before the timer is set.
        let due = clock.now.addingTimeInterval(5)
        clock.advance(by: .seconds(5) + .milliseconds(1))
        let late = Mutex(false)
        let first = activities.at(due, "timer for a date already passed") { late.withLock { $0 = true } }
        try await poll(until: { late.withLock { $0 } }, "the timer for a passed date to fire without another advance")

        let fired = Mutex(false)
        let second = activities.at(clock.now.addingTimeInterval(10), "timer for a date to come") { fired.withLock { $0 = true } }
        clock.advance(by: .seconds(4))
        // It waits for the date, six seconds on, whenever its task began.
        try await poll(until: {
            clock.pendingDeadlines.count == 1 && abs((clock.pendingDeadlines[0] - .seconds(6)) / .milliseconds(1)) < 1
        }, "the timer to wait for the 6 s left")
        #expect(!fired.withLock { $0 }, "not before its date")
        clock.advance(by: .seconds(6))
        try await poll(until: { fired.withLock { $0 } }, "the timer to fire at its date")
        withExtendedLifetime((first, second)) {}
        await activities.shutdown()
    }
}
