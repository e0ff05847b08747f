/*
Abstract:
A person's answer to a delivered notification: which notification, which action, and the text typed.
*/

import Foundation

/// What `UNNotificationResponse` carries to the app's delegate.
public struct NotificationResponseDescriptor: Codable, Sendable, Hashable {
    /// The notification the person answered.
    public var notification: DeliveredNotificationDescriptor
    /// The action chosen: one of the category's, or Apple's default or dismiss action.
    public var actionIdentifier: String
    /// The text typed, for a text-input action.
    public var userText: String?

    /// Creates a response.
    public init(notification: DeliveredNotificationDescriptor, actionIdentifier: String, userText: String? = nil) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
    }

    /// Apple's `UNNotificationDefaultActionIdentifier`: the person opened the notification.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// Apple's `UNNotificationDismissActionIdentifier`: the person dismissed it (categories with
    /// `customDismissAction` only).
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
}
