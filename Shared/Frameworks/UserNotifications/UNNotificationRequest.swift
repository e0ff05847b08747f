/*
Abstract:
A notification request, its time-interval trigger, and a delivered notification, with Apple's names.
*/

import BackgroundAssetsIPC
import Foundation

/// The common behaviour of triggers.
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    // @unchecked: immutable once made.
    /// Whether the system reschedules the notification after delivering it.
    public let repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
    }
}

/// A trigger that delivers a notification after an amount of time.
///
/// - Note: Apple raises an exception for an interval that is not positive, or under 60 seconds when
///   it repeats. Here the trigger is made, and ``UNUserNotificationCenter/add(_:withCompletionHandler:)``
///   refuses its request with that reason.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The time interval used to create the trigger.
    public let timeInterval: TimeInterval

    /// Creates a trigger that delivers after `timeInterval` seconds, repeating if asked.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    /// The next date the trigger fires, counted from now; Apple counts from the request's scheduling.
    open func nextTriggerDate() -> Date? {
        Date(timeIntervalSinceNow: timeInterval)
    }
}

/// A request to schedule a local notification: an identifier, content and a trigger.
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    // @unchecked: immutable once made; the content is copied in.
    /// The request's unique identifier; a new request with it replaces the pending one.
    public let identifier: String
    /// The content of the notification.
    public let content: UNNotificationContent
    /// When to deliver; `nil` delivers at once.
    public let trigger: UNNotificationTrigger?

    /// Creates a request.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = UNNotificationContent(content.descriptor)
        self.trigger = trigger
    }

    /// The request as the system keeps it.
    var descriptor: NotificationRequestDescriptor {
        let timeTrigger = (trigger as? UNTimeIntervalNotificationTrigger).map {
            NotificationTriggerDescriptor(timeInterval: $0.timeInterval, repeats: $0.repeats)
        }
        return NotificationRequestDescriptor(identifier: identifier, content: content.descriptor, trigger: timeTrigger)
    }

    /// A request from the system's description.
    convenience init(_ descriptor: NotificationRequestDescriptor) {
        self.init(identifier: descriptor.identifier, content: UNNotificationContent(descriptor.content),
                  trigger: descriptor.trigger.map { UNTimeIntervalNotificationTrigger(timeInterval: $0.timeInterval, repeats: $0.repeats) })
    }
}

/// A notification the system delivered.
open class UNNotification: NSObject, @unchecked Sendable {
    // @unchecked: immutable.
    /// The delivery date.
    public let date: Date
    /// The request that was delivered.
    public let request: UNNotificationRequest

    init(_ descriptor: DeliveredNotificationDescriptor) {
        date = descriptor.date
        request = UNNotificationRequest(descriptor.request)
    }
}
