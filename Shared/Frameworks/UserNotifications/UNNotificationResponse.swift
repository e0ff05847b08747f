/*
Abstract:
A person's answer to a notification, with Apple's names and action identifiers.
*/

import BackgroundAssetsIPC
import Foundation

/// The action identifier of a response to a person opening the notification.
public let UNNotificationDefaultActionIdentifier = NotificationResponseDescriptor.defaultActionIdentifier
/// The action identifier of a response to a person dismissing the notification (categories with `customDismissAction`).
public let UNNotificationDismissActionIdentifier = NotificationResponseDescriptor.dismissActionIdentifier

/// A person's answer to a delivered notification.
///
/// - Note: On this device a person answers with `backgroundassets-debug notifications --respond ID
///   [--action ACTION] [--text TEXT] -b APP`; an app not running is launched in the background for it.
open class UNNotificationResponse: NSObject, @unchecked Sendable {
    // @unchecked: immutable.
    /// The notification answered.
    public let notification: UNNotification
    /// The action chosen: one of the category's, ``UNNotificationDefaultActionIdentifier`` or
    /// ``UNNotificationDismissActionIdentifier``.
    public let actionIdentifier: String

    init(_ descriptor: NotificationResponseDescriptor) {
        notification = UNNotification(descriptor.notification)
        actionIdentifier = descriptor.actionIdentifier
    }

    /// The response, a text-input response when the person typed.
    static func make(_ descriptor: NotificationResponseDescriptor) -> UNNotificationResponse {
        descriptor.userText == nil ? UNNotificationResponse(descriptor) : UNTextInputNotificationResponse(descriptor)
    }
}

/// A person's answer with the text they typed into a `UNTextInputNotificationAction`.
open class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
    /// The text typed.
    public let userText: String

    override init(_ descriptor: NotificationResponseDescriptor) {
        userText = descriptor.userText ?? ""
        super.init(descriptor)
    }
}
