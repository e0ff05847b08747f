/*
Abstract:
A local notification as values both the framework and the service read: content, trigger, request, delivery.
*/

import Foundation

/// What a notification shows: `UNNotificationContent`'s fields that travel to the system.
public struct NotificationContentDescriptor: Codable, Sendable, Hashable {
    public var title: String
    public var subtitle: String
    public var body: String
    /// The app icon's badge number, or `nil` to leave it.
    public var badge: Int?
    /// Whether the notification plays the default sound.
    public var playsSound: Bool
    public var threadIdentifier: String
    public var categoryIdentifier: String
    /// The content's `userInfo`, as JSON; values that JSON cannot carry are left out.
    public var userInfoJSON: Data?

    /// Creates content.
    public init(title: String = "", subtitle: String = "", body: String = "", badge: Int? = nil, playsSound: Bool = false,
                threadIdentifier: String = "", categoryIdentifier: String = "", userInfoJSON: Data? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.playsSound = playsSound
        self.threadIdentifier = threadIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.userInfoJSON = userInfoJSON
    }
}

/// When a notification is delivered: after an interval, or at a date that matches components, once
/// or repeating; `nil` in a request means at once.
public struct NotificationTriggerDescriptor: Codable, Sendable, Hashable {
    /// Seconds from the request's scheduling to its delivery; 0 for a calendar trigger.
    public var timeInterval: TimeInterval
    /// Whether it is delivered again: every `timeInterval`, or at every date that matches.
    public var repeats: Bool
    /// The date components a calendar trigger (`UNCalendarNotificationTrigger`) matches; `nil` for a
    /// time-interval trigger.
    public var dateMatch: NotificationDateMatch?

    /// Creates a time-interval trigger.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        self.timeInterval = timeInterval
        self.repeats = repeats
    }

    /// Creates a calendar trigger.
    public init(dateMatch: NotificationDateMatch, repeats: Bool) {
        timeInterval = 0
        self.repeats = repeats
        self.dateMatch = dateMatch
    }

    /// When the trigger fires next after `date`: its interval later, or the next date that matches
    /// (`nil` when no date will).
    public func nextDate(after date: Date) -> Date? {
        if let dateMatch { return dateMatch.nextDate(after: date) }
        return date.addingTimeInterval(timeInterval)
    }

    /// Why Apple refuses this trigger, or `nil`: the interval must be positive, and at least 60
    /// seconds when it repeats; a calendar trigger must match a field.
    public var refusal: String? {
        if let dateMatch { return dateMatch.refusal }
        guard timeInterval > 0, timeInterval.isFinite else {
            return "The time interval of a UNTimeIntervalNotificationTrigger must be greater than 0; it is \(timeInterval)."
        }
        if repeats, timeInterval < 60 {
            return "The time interval of a repeating UNTimeIntervalNotificationTrigger must be at least 60 seconds; it is \(timeInterval)."
        }
        return nil
    }
}

/// A request to notify: its identifier, content and trigger.
public struct NotificationRequestDescriptor: Codable, Sendable, Hashable {
    public var identifier: String
    public var content: NotificationContentDescriptor
    public var trigger: NotificationTriggerDescriptor?

    /// Creates a request.
    public init(identifier: String, content: NotificationContentDescriptor, trigger: NotificationTriggerDescriptor?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }
}

/// A notification the system delivered: the request and when.
public struct DeliveredNotificationDescriptor: Codable, Sendable, Hashable {
    public var request: NotificationRequestDescriptor
    /// When it was delivered (device time).
    public var date: Date

    /// Creates a delivery.
    public init(request: NotificationRequestDescriptor, date: Date) {
        self.request = request
        self.date = date
    }
}

/// Whether the app may post notifications, with the raw values of Apple's `UNAuthorizationStatus`.
public enum NotificationAuthorizationStatus: Int, Codable, Sendable, Hashable {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    case provisional = 3
    case ephemeral = 4
}
