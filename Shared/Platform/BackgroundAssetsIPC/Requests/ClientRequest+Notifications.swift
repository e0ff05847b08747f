/*
Abstract:
The requests of the notification center: authorization, requests, delivered notifications, badges, categories, the delegate's answers.
*/

extension ClientRequest {
    /// The requests `UNUserNotificationCenter` makes for the app; the debug tool may read any app's
    /// delivered notifications and badges.
    public enum Notifications: Codable, Sendable, Equatable {
        /// Asks once whether the app may notify; later calls get the recorded answer.
        case requestNotificationAuthorization(options: UInt)
        /// Asks for the app's notification authorization.
        case fetchNotificationAuthorization
        /// Schedules a local notification, replacing the app's pending one with the same identifier.
        case addNotification(NotificationRequestDescriptor)
        /// Asks for the app's pending notification requests.
        case fetchPendingNotifications
        /// Asks for delivered notifications after a place in the list: the caller's app's, or with the
        /// debug tool, one app's or every app's.
        case fetchDeliveredNotifications(bundleIdentifier: String?, after: Int64?)
        /// Removes the app's pending or delivered notifications, all of them when `identifiers` is `nil`.
        case removeNotifications(NotificationList, identifiers: [String]?)
        /// Says whether this connection presents notifications that arrive while the app runs (`willPresent`).
        case setNotificationPresenter(isSet: Bool)
        /// Answers a `notificationWillPresent` event with `UNNotificationPresentationOptions`' raw value.
        case answerNotificationPresentation(presentationID: UInt64, options: UInt)
        /// Sets the number the app's icon shows (`setBadgeCount`); 0 removes the badge.
        case setNotificationBadgeCount(count: Int)
        /// Asks for the badges apps show: the caller's app's, or with the debug tool one app's or every app's.
        case fetchNotificationBadges(bundleIdentifier: String?)
        /// Replaces the app's notification categories (`setNotificationCategories`).
        case setNotificationCategories([NotificationCategoryDescriptor])
        /// Asks for the app's notification categories.
        case fetchNotificationCategories
        /// The app's delegate finished handling a `notificationResponse` event.
        case answerNotificationResponse(responseID: UInt64)
    }
}
