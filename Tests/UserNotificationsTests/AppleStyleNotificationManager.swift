/*
Abstract:
A notification manager written from Apple's "Scheduling a notification locally from your app", "Declaring your actionable notification types" and "Handling notifications and notification-related actions", run against an in-memory system.
*/

// Apple's code, with `import UserNotifications` as its only import. The one edit: the manager
// takes its center (Apple's uses `UNUserNotificationCenter.current()`), so the test can give it
// an in-memory system.
import Synchronization
import UserNotifications

final class MeetingNotificationManager: NSObject, UNUserNotificationCenterDelegate, Sendable {
    let center: UNUserNotificationCenter
    /// What the app did with each answer, for the test to read.
    let handled = Mutex<[String]>([])

    init(center: UNUserNotificationCenter) {
        self.center = center
        super.init()
        center.delegate = self
    }

    /// Handles the person's choice, as Apple's article does.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping @Sendable () -> Void) {
        // Get the meeting ID from the original notification.
        let userInfo = response.notification.request.content.userInfo
        let meetingID = userInfo["MEETING_ID"] as? String ?? "unknown"
        // Perform the task associated with the action.
        switch response.actionIdentifier {
        case "ACCEPT_ACTION":
            handled.withLock { $0.append("accepted \(meetingID)") }
        case "DECLINE_ACTION":
            handled.withLock { $0.append("declined \(meetingID)") }
        case "REPLY_ACTION":
            let text = (response as? UNTextInputNotificationResponse)?.userText ?? ""
            handled.withLock { $0.append("replied \(meetingID): \(text)") }
        case UNNotificationDefaultActionIdentifier, UNNotificationDismissActionIdentifier:
            handled.withLock { $0.append("opened or dismissed \(meetingID)") }
        default:
            break
        }
        // Always call the completion handler when done.
        completionHandler()
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
