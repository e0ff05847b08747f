/*
Abstract:
Tests of the notification center: authorization asked once, requests added, pending and delivered lists, removal, willPresent.
*/

import BackgroundAssetsIPC
import Synchronization
import TestSupport
import Testing
@testable import UserNotifications

@Suite("Local notifications")
struct UserNotificationCenterTests {
    func content(_ title: String) -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = "New levels are ready to play."
        content.sound = .default
        content.badge = 1
        content.userInfo = ["version": 2]
        return content
    }

    @Test("Authorization is asked once; an authorized app's notifications are recorded with their content")
    func authorizedNotifications() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        #expect(await center.notificationSettings().authorizationStatus == .notDetermined)
        #expect(try await center.requestAuthorization(options: [.alert, .sound]))
        #expect(try await center.requestAuthorization(options: [.alert]))
        #expect(system.questionsAsked == 1)

        try await center.add(UNNotificationRequest(identifier: "ready", content: content("Ready to play"), trigger: nil))
        let delivered = await center.deliveredNotifications()
        #expect(delivered.map(\.request.identifier) == ["ready"])
        let shown = try #require(delivered.first?.request.content)
        #expect(shown.title == "Ready to play")
        #expect(shown.body == "New levels are ready to play.")
        #expect(shown.badge == 1)
        #expect(shown.sound != nil)
        #expect(shown.userInfo["version"] as? Int == 2)
    }

    @Test("A denied app's notifications are refused with notificationsNotAllowed and not recorded")
    func deniedNotifications() async throws {
        let system = InMemoryNotificationSystem(answer: false)
        let center = UNUserNotificationCenter(service: system)
        #expect(try await center.requestAuthorization(options: [.alert]) == false)
        #expect(await center.notificationSettings().authorizationStatus == .denied)
        await #expect(throws: UNError.self) {
            try await center.add(UNNotificationRequest(identifier: "ready", content: content("Ready"), trigger: nil))
        }
        let refusal = Mutex<(any Error)?>(nil)
        center.add(UNNotificationRequest(identifier: "ready", content: content("Ready"), trigger: nil)) { error in
            refusal.withLock { $0 = error }
        }
        let error = try await poll("the completion handler's error") { refusal.withLock { $0 } }
        #expect((error as NSError).domain == UNErrorDomain)
        #expect((error as NSError).code == 1)
        #expect(await center.deliveredNotifications().isEmpty)
    }

    @Test("A time-interval request waits in the pending list until it fires, and removal empties the lists")
    func pendingAndRemoval() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        _ = try await center.requestAuthorization(options: [.alert])
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
        try await center.add(UNNotificationRequest(identifier: "later", content: content("Later"), trigger: trigger))
        try await center.add(UNNotificationRequest(identifier: "other", content: content("Other"), trigger: trigger))
        let pending = await center.pendingNotificationRequests()
        #expect(pending.map(\.identifier) == ["later", "other"])
        #expect((pending.first?.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 5)
        system.fire("later", at: Date(timeIntervalSince1970: 100))
        #expect(await center.deliveredNotifications().map(\.date) == [Date(timeIntervalSince1970: 100)])
        center.removePendingNotificationRequests(withIdentifiers: ["other"])
        try await poll(until: { await center.pendingNotificationRequests().isEmpty }, "the pending request removed")
        center.removeAllDeliveredNotifications()
        try await poll(until: { await center.deliveredNotifications().isEmpty }, "the delivered notification removed")
    }

    @Test("A calendar trigger keeps its components through the system, and says when it fires next")
    func calendarTrigger() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        _ = try await center.requestAuthorization(options: [.alert])
        // As Apple's "Scheduling a notification locally from your app" writes it.
        var dateComponents = DateComponents()
        dateComponents.calendar = Calendar(identifier: .gregorian)
        dateComponents.timeZone = TimeZone(identifier: "UTC")
        dateComponents.weekday = 3  // Tuesday
        dateComponents.hour = 14
        let trigger = UNCalendarNotificationTrigger(dateMatching: dateComponents, repeats: true)
        let next = try #require(trigger.nextTriggerDate())
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        #expect(utc.component(.weekday, from: next) == 3 && utc.component(.hour, from: next) == 14)
        #expect(next > Date() && next.timeIntervalSinceNow <= 7 * 86_400)

        try await center.add(UNNotificationRequest(identifier: "weekly", content: content("Weekly"), trigger: trigger))
        let pending = try #require(await center.pendingNotificationRequests().first?.trigger as? UNCalendarNotificationTrigger)
        #expect(pending.repeats)
        #expect(pending.dateComponents.weekday == 3 && pending.dateComponents.hour == 14 && pending.dateComponents.minute == nil)
        #expect(pending.nextTriggerDate() == next)
    }

    @Test("A calendar trigger that matches no field is refused with notificationInvalidNoDate")
    func emptyCalendarTrigger() async throws {
        let center = UNUserNotificationCenter(service: InMemoryNotificationSystem(answer: true))
        _ = try await center.requestAuthorization(options: [.alert])
        let trigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(), repeats: false)
        let error = await #expect(throws: UNError.self) {
            try await center.add(UNNotificationRequest(identifier: "never", content: content("Never"), trigger: trigger))
        }
        #expect(error?.code == .notificationInvalidNoDate && error?.message.contains("name no field") == true)
    }

    @Test("setBadgeCount reaches the system in both forms; a negative count is refused with badgeInputInvalid")
    func badgeCount() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        try await center.setBadgeCount(3)
        #expect(system.badge == 3)
        let error = await #expect(throws: UNError.self) { try await center.setBadgeCount(-2) }
        #expect(error?.code == .badgeInputInvalid)
        #expect(system.badge == 3)
        let handled = await withCheckedContinuation { (done: CheckedContinuation<(any Error)?, Never>) in
            center.setBadgeCount(0) { done.resume(returning: $0) }
        }
        #expect(handled == nil && system.badge == 0)
    }

    @Test("Apple's meeting-invitation code registers its category and schedules its weekly reminder")
    func appleStyleManager() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        _ = try await center.requestAuthorization(options: [.alert, .badge])
        let manager = MeetingNotificationManager(center: center)
        manager.registerCategories()
        try await manager.scheduleWeeklyReminder()

        let categories = await center.notificationCategories()
        let category = try #require(categories.first)
        #expect(categories.count == 1 && category.identifier == "MEETING_INVITATION" && category.options == .customDismissAction)
        #expect(category.actions.map(\.identifier) == ["ACCEPT_ACTION", "DECLINE_ACTION", "REPLY_ACTION"])
        #expect(category.actions[1].options == .destructive)
        let reply = try #require(category.actions[2] as? UNTextInputNotificationAction)
        #expect(reply.textInputButtonTitle == "Send" && reply.textInputPlaceholder == "Message")

        let pending = try #require(await center.pendingNotificationRequests().first)
        #expect(pending.content.categoryIdentifier == "MEETING_INVITATION")
        let trigger = try #require(pending.trigger as? UNCalendarNotificationTrigger)
        #expect(trigger.repeats && trigger.dateComponents.weekday == 3 && trigger.dateComponents.hour == 14)
        #expect(system.badge == 1)

        // The person answers the reminder: the delegate handles each action.
        let delivered = try #require(await center.pendingNotificationRequests().first)
        system.state.withLock { $0.delivered = [DeliveredNotificationDescriptor(request: delivered.descriptor, date: Date())] }
        system.respond(to: delivered.identifier, action: "ACCEPT_ACTION")
        system.respond(to: delivered.identifier, action: "REPLY_ACTION", text: "Running late")
        try await poll(until: { system.handledResponses == 2 }, "both answers handled")
        #expect(manager.handled.withLock { $0 } == ["accepted staff-weekly", "replied staff-weekly: Running late"])

        // Another process of the app reads the categories back from the system.
        try await poll(until: { await system.categories().count == 1 }, "the categories kept by the system")
        let later = UNUserNotificationCenter(service: system)
        #expect(await later.notificationCategories() == categories)
    }

    @Test("Categories over the device's limits are not kept, and the reason names the category")
    func categoryLimits() async {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        let actions = (0..<11).map { UNNotificationAction(identifier: "A\($0)", title: "Action \($0)") }
        #expect(NotificationCategoryDescriptor.problem(in: [UNNotificationCategory(
            identifier: "CROWDED", actions: actions, intentIdentifiers: []).descriptor])?.contains("CROWDED has 11 actions") == true)
        center.setNotificationCategories([UNNotificationCategory(identifier: "CROWDED", actions: actions, intentIdentifiers: [])])
        #expect(await center.notificationCategories().isEmpty)
        #expect(system.warnings.contains { $0.contains("CROWDED has 11 actions") }, "\(system.warnings)")
    }

    @Test("A person's answer reaches the delegate's didReceive, with the action and the typed text, and the system hears it was handled")
    func responses() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        let delegate = AnsweringDelegate()
        center.delegate = delegate
        _ = try await center.requestAuthorization(options: [.alert])
        try await center.add(UNNotificationRequest(identifier: "invite", content: content("Invite"), trigger: nil))
        // Presented while the app runs: the delegate's willPresent answers [] and it is not listed,
        // so the test delivers it to the list itself.
        system.state.withLock { $0.delivered = [DeliveredNotificationDescriptor(request: NotificationRequestDescriptor(
            identifier: "invite", content: NotificationContentDescriptor(title: "Invite"), trigger: nil), date: Date())] }
        system.respond(to: "invite", action: "REPLY", text: "See you there")
        system.respond(to: "invite", action: UNNotificationDefaultActionIdentifier)
        try await poll(until: { system.handledResponses == 2 }, "both answers handled")
        let received = delegate.received.withLock { $0 }
        #expect(received.map(\.action) == ["REPLY", UNNotificationDefaultActionIdentifier])
        #expect(received.first?.text == "See you there" && received.last?.text == nil)
        #expect(received.allSatisfy { $0.identifier == "invite" })
    }

    @Test("A repeating trigger under 60 seconds is refused with Apple's reason")
    func repeatingTooOften() async throws {
        let center = UNUserNotificationCenter(service: InMemoryNotificationSystem(answer: true))
        _ = try await center.requestAuthorization(options: [.alert])
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true)
        let error = await #expect(throws: UNError.self) {
            try await center.add(UNNotificationRequest(identifier: "often", content: content("Often"), trigger: trigger))
        }
        #expect(error?.message.contains("at least 60 seconds") == true)
    }

    @Test("An oversized body is refused in the app, before it travels, and the error reaches the completion handler naming the limit")
    func oversizedBody() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        _ = try await center.requestAuthorization(options: [.alert])
        let big = content("Big")
        big.body = String(repeating: "a", count: 4 << 20)
        let refusal = Mutex<(any Error)?>(nil)
        center.add(UNNotificationRequest(identifier: "big", content: big, trigger: nil)) { error in
            refusal.withLock { $0 = error }
        }
        let error = try await poll("the completion handler's error") { refusal.withLock { $0 } }
        #expect((error as NSError).domain == UNErrorDomain)
        #expect((error as NSError).code == UNError.Code.notificationInvalidNoContent.rawValue)
        #expect(error.localizedDescription.contains("4194304 bytes") && error.localizedDescription.contains("4096 bytes"), "\(error)")
        #expect(await center.pendingNotificationRequests().isEmpty)
        #expect(await center.deliveredNotifications().isEmpty)
        #expect(system.state.withLock { $0.pending.isEmpty }, "nothing reached the system")
    }

    @Test("While the app runs, the delegate's willPresent decides whether a notification is shown")
    func willPresent() async throws {
        let system = InMemoryNotificationSystem(answer: true)
        let center = UNUserNotificationCenter(service: system)
        _ = try await center.requestAuthorization(options: [.alert])
        let delegate = PresentingDelegate()
        center.delegate = delegate
        try await poll(until: { system.state.withLock { $0.listener != nil } }, "the center listening")
        try await center.add(UNNotificationRequest(identifier: "shown", content: content("Shown"), trigger: nil))
        try await poll(until: { await center.deliveredNotifications().count == 1 }, "the presented notification recorded")
        #expect(delegate.presented == ["shown"])
        delegate.options = []
        try await center.add(UNNotificationRequest(identifier: "hidden", content: content("Hidden"), trigger: nil))
        try await poll(until: { delegate.presented.count == 2 }, "the second willPresent")
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["shown"])
    }
}

/// A delegate as Apple's documentation writes one: it answers with the options it holds.
private final class PresentingDelegate: UNUserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked: the state is behind a lock.
    private let state = Mutex<(options: UNNotificationPresentationOptions, presented: [String])>(([.banner, .list], []))

    var options: UNNotificationPresentationOptions {
        get { state.withLock { $0.options } }
        set { state.withLock { $0.options = newValue } }
    }

    var presented: [String] { state.withLock { $0.presented } }

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void) {
        let options = state.withLock { state in
            state.presented.append(notification.request.identifier)
            return state.options
        }
        completionHandler(options)
    }
}

/// A delegate written as Apple's documentation shows it, with the async form of didReceive.
final class AnsweringDelegate: UNUserNotificationCenterDelegate, Sendable {
    let received = Mutex<[(identifier: String, action: String, text: String?)]>([])

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        let text = (response as? UNTextInputNotificationResponse)?.userText
        received.withLock { $0.append((response.notification.request.identifier, response.actionIdentifier, text)) }
    }
}
