/*
Abstract:
A notification manager written from Apple's "Scheduling a notification locally from your app" and "Declaring your actionable notification types", kept compiling and run against an in-memory system.
*/

// Apple's code, with `import UserNotifications` as its only import. The one edit: the manager
// takes its center (Apple's uses `UNUserNotificationCenter.current()`), so the test can give it
// an in-memory system.
import UserNotifications

final class MeetingNotificationManager: Sendable {
    let center: UNUserNotificationCenter

    init(center: UNUserNotificationCenter) {
        self.center = center
    }

    /// Declares the meeting-invitation category and its actions, as Apple's article does.
    func registerCategories() {
        // Define the custom actions.
        let acceptAction = UNNotificationAction(identifier: "ACCEPT_ACTION", title: "Accept", options: [])
        let declineAction = UNNotificationAction(identifier: "DECLINE_ACTION", title: "Decline", options: [.destructive])
        let replyAction = UNTextInputNotificationAction(identifier: "REPLY_ACTION", title: "Reply", options: [],
                                                        textInputButtonTitle: "Send", textInputPlaceholder: "Message")
        // Define the notification type
        let meetingInviteCategory = UNNotificationCategory(
            identifier: "MEETING_INVITATION", actions: [acceptAction, declineAction, replyAction], intentIdentifiers: [],
            hiddenPreviewsBodyPlaceholder: "", options: .customDismissAction)
        // Register the notification type.
        center.setNotificationCategories([meetingInviteCategory])
    }

    /// Schedules a weekly reminder on Tuesdays at 14:00, as Apple's article does.
    func scheduleWeeklyReminder() async throws {
        let content = UNMutableNotificationContent()
        content.title = "Weekly Staff Meeting"
        content.body = "Every Tuesday at 2pm"
        content.categoryIdentifier = "MEETING_INVITATION"
        content.userInfo = ["MEETING_ID": "staff-weekly"]

        // Configure the recurring date.
        var dateComponents = DateComponents()
        dateComponents.calendar = Calendar.current
        dateComponents.weekday = 3  // Tuesday
        dateComponents.hour = 14    // 14:00 hours

        // Create the trigger as a repeating event.
        let trigger = UNCalendarNotificationTrigger(dateMatching: dateComponents, repeats: true)

        // Create the request
        let uuidString = UUID().uuidString
        let request = UNNotificationRequest(identifier: uuidString, content: content, trigger: trigger)

        // Schedule the request with the system.
        try await center.add(request)
        try await center.setBadgeCount(1)
    }
}
