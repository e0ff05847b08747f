/*
Abstract:
Tests of calendar triggers in the service: due at the next matching date of the device's clock, repeating ones scheduled for the next match.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Calendar notification triggers")
struct CalendarTriggerTests {
    /// 2026-12-05 07:00:00 UTC, a Saturday.
    let saturdayMorning = Date(timeIntervalSince1970: 1_796_454_000)

    func request(_ match: NotificationDateMatch, repeats: Bool) -> NotificationRequestDescriptor {
        NotificationRequestDescriptor(identifier: "wake-up", content: NotificationContentDescriptor(title: "Daily levels"),
                                      trigger: NotificationTriggerDescriptor(dateMatch: match, repeats: repeats))
    }

    @Test("A daily 8:30 trigger is due at 8:30 today, then at 8:30 tomorrow, on the device's clock")
    func dailyRepeats() {
        let eightThirty = NotificationDateMatch(hour: 8, minute: 30, timeZone: "UTC")
        var state = NotificationState()
        _ = state.add(request(eightThirty, repeats: true), app: "com.example.game", now: saturdayMorning)
        let first = saturdayMorning.addingTimeInterval(90 * 60)
        #expect(state.nextDueDate == first)
        #expect(state.deliverDue(now: first.addingTimeInterval(-1)).isEmpty, "nothing is due a second early")
        let delivered = state.deliverDue(now: first)
        #expect(delivered.contains { if case .record(app: "com.example.game", _) = $0 { true } else { false } })
        #expect(state.nextDueDate == first.addingTimeInterval(86_400))
        // Days the service did not run are one delivery, then the next 8:30 after now.
        _ = state.deliverDue(now: first.addingTimeInterval(3 * 86_400 + 60))
        #expect(state.nextDueDate == first.addingTimeInterval(4 * 86_400))
    }

    @Test("A trigger that does not repeat is delivered once and leaves the pending list")
    func once() {
        let monday = NotificationDateMatch(hour: 9, minute: 0, weekday: 2, timeZone: "UTC")
        var state = NotificationState()
        _ = state.add(request(monday, repeats: false), app: "com.example.game", now: saturdayMorning)
        let due = saturdayMorning.addingTimeInterval(2 * 86_400 + 2 * 3600)
        #expect(state.nextDueDate == due)
        _ = state.deliverDue(now: due)
        #expect(state.pendingRequests(of: "com.example.game").isEmpty)
        #expect(state.nextDueDate == nil)
    }

    @Test("The components' time zone decides the hour")
    func timeZones() {
        let tokyo = NotificationDateMatch(hour: 20, minute: 0, timeZone: "Asia/Tokyo")
        // 20:00 in Tokyo is 11:00 UTC.
        #expect(NotificationPolicy.dueDate(of: request(tokyo, repeats: false), scheduled: saturdayMorning)
            == saturdayMorning.addingTimeInterval(4 * 3600))
    }

    @Test("Components that name no field, a value out of range or an unknown time zone are refused with the reason")
    func refusals() {
        #expect(NotificationDateMatch().refusal?.contains("name no field") == true)
        #expect(NotificationDateMatch(hour: 24).refusal?.contains("hour 24") == true)
        #expect(NotificationDateMatch(hour: 8, timeZone: "Mars/Olympus").refusal?.contains("Mars/Olympus") == true)
        #expect(NotificationDateMatch(month: 2, day: 29).refusal == nil)
        // A date in the past matches nothing: due never, pending like Apple's.
        let past = NotificationDateMatch(year: 2020, month: 1, day: 1, hour: 0, minute: 0, timeZone: "UTC")
        #expect(NotificationPolicy.dueDate(of: request(past, repeats: false), scheduled: saturdayMorning) == .distantFuture)
    }
}
