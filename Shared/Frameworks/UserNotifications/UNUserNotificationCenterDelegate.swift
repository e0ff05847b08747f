/*
Abstract:
The notification center's delegate: how a notification that arrives while the app runs is presented.
*/

import Foundation

/// Handles notifications that arrive while the app runs.
public protocol UNUserNotificationCenterDelegate: AnyObject, Sendable {
    /// Asks how to present a notification that arrived while the app runs.
    ///
    /// Call the handler with `.banner` and `.list` to show it (on the desktop, and in
    /// `backgroundassets-debug notifications`), or `[]` to handle it inside the app.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)

    /// Asks how to present a notification that arrived while the app runs.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
}

extension UNUserNotificationCenterDelegate {
    /// Calls the completion-handler form, so a delegate may implement either.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    {
        await withCheckedContinuation { continuation in
            userNotificationCenter(center, willPresent: notification) { continuation.resume(returning: $0) }
        }
    }

    /// Presents nothing: without an answer, a notification to a running app is not shown, as on Apple platforms.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                       withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void) {
        completionHandler([])
    }
}
