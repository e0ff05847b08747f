/*
Abstract:
A notification request, its time-interval and calendar triggers, and a delivered notification, with Apple's names.
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

/// A trigger that delivers a notification at a date and time that match date components.
///
/// Fields left out of the components match any value: `hour` 8 and `minute` 30 fire every day at
/// 8:30 when the trigger repeats. The system fires it on the device's clock (which
/// `backgroundassets-debug settings --time-scale` may speed up), in the components' time zone or
/// the device's.
/// - Note: Components this device does not match on (`era`, `quarter`, `nanosecond`, a calendar
///   other than the Gregorian) are left out; a request whose components name no field, or a value
///   out of range, is refused by ``UNUserNotificationCenter/add(_:withCompletionHandler:)``.
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The date components used to create the trigger.
    public let dateComponents: DateComponents

    /// Creates a trigger that fires at the next date matching `dateComponents`, repeating if asked.
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats)
    }

    /// The next date, after now, that matches the trigger's components; `nil` when none will.
    open func nextTriggerDate() -> Date? {
        dateMatch.nextDate(after: Date())
    }

    /// The components as the system matches them.
    var dateMatch: NotificationDateMatch {
        let components = dateComponents
        return NotificationDateMatch(
            year: components.year, month: components.month, day: components.day, hour: components.hour,
            minute: components.minute, second: components.second, weekday: components.weekday,
            weekdayOrdinal: components.weekdayOrdinal, weekOfMonth: components.weekOfMonth,
            weekOfYear: components.weekOfYear, timeZone: (components.timeZone ?? components.calendar?.timeZone)?.identifier)
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
        let described: NotificationTriggerDescriptor? = switch trigger {
        case let calendar as UNCalendarNotificationTrigger:
            NotificationTriggerDescriptor(dateMatch: calendar.dateMatch, repeats: calendar.repeats)
        case let interval as UNTimeIntervalNotificationTrigger:
            NotificationTriggerDescriptor(timeInterval: interval.timeInterval, repeats: interval.repeats)
        default:
            nil
        }
        return NotificationRequestDescriptor(identifier: identifier, content: content.descriptor, trigger: described)
    }

    /// A request from the system's description.
    convenience init(_ descriptor: NotificationRequestDescriptor) {
        let trigger: UNNotificationTrigger? = descriptor.trigger.map { trigger in
            if let match = trigger.dateMatch {
                return UNCalendarNotificationTrigger(dateMatching: match.dateComponents, repeats: trigger.repeats)
            }
            return UNTimeIntervalNotificationTrigger(timeInterval: trigger.timeInterval, repeats: trigger.repeats)
        }
        self.init(identifier: descriptor.identifier, content: UNNotificationContent(descriptor.content), trigger: trigger)
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
