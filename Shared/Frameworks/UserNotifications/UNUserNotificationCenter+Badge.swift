/*
Abstract:
The number the app's icon shows: `setBadgeCount`, in its completion-handler and async forms.
*/

import Foundation

extension UNUserNotificationCenter {
    /// Updates the badge count for your app's icon; 0 removes the badge.
    ///
    /// The device keeps the number until the app sets another, or a delivered notification's
    /// `badge` replaces it; `backgroundassets-debug notifications` shows it.
    /// - Throws: `UNError` `badgeInputInvalid` for a negative count.
    /// - Note: Apple applies the badge only to an app authorized with `.badge`; this device has no
    ///   icon to hide it from, so it keeps the number whatever the app was allowed.
    public func setBadgeCount(_ newBadgeCount: Int) async throws {
        guard newBadgeCount >= 0 else {
            throw UNError(.badgeInputInvalid, message: "The badge count \(newBadgeCount) is negative; pass 0 to remove the badge, or a number above 0.")
        }
        try await service.setBadgeCount(newBadgeCount)
    }

    /// Updates the badge count for your app's icon; the handler receives the error, if any.
    public func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        Task {
            do {
                try await setBadgeCount(newBadgeCount)
                completionHandler?(nil)
            } catch {
                completionHandler?(error)
            }
        }
    }
}
