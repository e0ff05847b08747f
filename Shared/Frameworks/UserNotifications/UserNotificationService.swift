/*
Abstract:
What the notification center asks of the system, as a protocol: the service's client, or an in-memory system in tests.
*/

import BackgroundAssetsIPC
import Foundation

/// The system side of ``UNUserNotificationCenter``: the device keeps each app's authorization, its
/// pending requests and its delivered notifications, and shows them on the desktop when there is one.
package protocol UserNotificationService: Sendable {
    /// Asks the person once whether the app may notify; later calls return the recorded answer.
    func requestAuthorization(options: UInt) async throws -> Bool
    /// The app's authorization.
    func authorizationStatus() async -> NotificationAuthorizationStatus
    /// Schedules a request, replacing a pending one with the same identifier.
    /// - Throws: `UNError` `notificationsNotAllowed` when the app is not authorized.
    func add(_ request: NotificationRequestDescriptor) async throws
    /// The requests not yet delivered.
    func pendingRequests() async -> [NotificationRequestDescriptor]
    /// The notifications delivered and not removed, oldest first.
    func deliveredNotifications() async -> [DeliveredNotificationDescriptor]
    /// Removes pending requests, all of them when `identifiers` is `nil`.
    func removePending(identifiers: [String]?) async
    /// Removes delivered notifications, all of them when `identifiers` is `nil`.
    func removeDelivered(identifiers: [String]?) async
    /// Sets the number the app's icon shows; 0 removes the badge.
    /// - Throws: `UNError` `badgeInputInvalid` for a negative count, or why the device could not keep it.
    func setBadgeCount(_ count: Int) async throws
    /// Replaces the app's notification categories; sent before any request made after this returns.
    func setCategories(_ categories: [NotificationCategoryDescriptor])
    /// The app's notification categories.
    func categories() async -> [NotificationCategoryDescriptor]
    /// A person's answers to the app's notifications, once the app listens (``arrivals()`` makes
    /// it listen); `done` tells the system the delegate finished with one. Call it before ``arrivals()``.
    func responses() -> AsyncStream<(response: NotificationResponseDescriptor, done: @Sendable () -> Void)>
    /// Notifications due while the app runs: the app's delegate chooses how each is presented, and
    /// `present` sends its choice (the raw value of `UNNotificationPresentationOptions`).
    func arrivals() -> AsyncStream<(notification: DeliveredNotificationDescriptor, present: @Sendable (UInt) -> Void)>
    /// Says what the center refused where Apple's framework reports nothing; the default writes the
    /// line to standard error.
    func warn(_ message: String)
}

extension UserNotificationService {
    /// Writes the line to standard error, the one place a developer sees what was not kept.
    package func warn(_ message: String) {
        FileHandle.standardError.write(Data("UserNotifications: \(message)\n".utf8))
    }
}
