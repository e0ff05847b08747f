/*
Abstract:
A delivered notification as the device lists it: whose it is, where it stands in the list, and what it said.
*/

import Foundation

/// One notification the device delivered, with its app and its place in the device's list.
public struct DeliveredNotificationRecord: Codable, Sendable, Hashable {
    /// The app that posted it.
    public var bundleIdentifier: String
    /// Its place in the device's list, increasing: `notifications --follow` asks for those after the last it showed.
    public var sequence: Int64
    /// The notification.
    public var notification: DeliveredNotificationDescriptor

    /// Creates a record.
    public init(bundleIdentifier: String, sequence: Int64, notification: DeliveredNotificationDescriptor) {
        self.bundleIdentifier = bundleIdentifier
        self.sequence = sequence
        self.notification = notification
    }
}

/// Which of an app's notifications `removeNotifications` removes.
public enum NotificationList: String, Codable, Sendable, CaseIterable {
    /// Requests not yet delivered.
    case pending
    /// Notifications delivered and still listed.
    case delivered
}

/// The number an app's icon shows, as `backgroundassets-debug notifications` lists it.
public struct NotificationBadge: Codable, Sendable, Hashable {
    /// The app whose icon shows it.
    public var bundleIdentifier: String
    /// The number, above 0: an app whose badge is 0 shows none and is not listed.
    public var count: Int

    /// Creates a badge.
    public init(bundleIdentifier: String, count: Int) {
        self.bundleIdentifier = bundleIdentifier
        self.count = count
    }
}
