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

    /// Tells the delegate a person answered a notification: opened it, dismissed it, or chose one of
    /// its category's actions. Call the handler when done; the system may end a background launch then.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping @Sendable () -> Void)

    /// Tells the delegate a person answered a notification; returning is being done.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
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

    /// Calls the completion-handler form, so a delegate may implement either.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        await withCheckedContinuation { continuation in
            userNotificationCenter(center, didReceive: response) { continuation.resume() }
        }
    }

    /// Does nothing with the answer, as a delegate without the optional method does.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                       withCompletionHandler completionHandler: @escaping @Sendable () -> Void) {
        completionHandler()
    }
}
