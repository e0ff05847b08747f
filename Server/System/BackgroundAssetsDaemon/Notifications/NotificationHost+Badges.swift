/*
Abstract:
The number an app's icon shows: set with setBadgeCount, listed by the debug tool.
*/

import BackgroundAssetsIPC
import Foundation

extension NotificationHost {
    /// Sets the number the app's icon shows, on disk before this returns; 0 removes the badge.
    /// - Throws: ``Refusal`` `badgeInputInvalid` (1600) for a negative count, or the store's error.
    func setBadge(_ count: Int, app: String, isolation: isolated (any Actor)? = #isolation) async throws {
        guard count >= 0 else {
            throw Refusal(code: 1600, message: "The badge count \(count) is negative; pass 0 to remove the badge, or a number above 0.")
        }
        try await store.setBadge(count, of: app)
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "setBadgeCount", app: app, detail: "\(count)"))
    }

    /// The badges apps show: one app's, or every app's.
    func badges(app: String?, isolation: isolated (any Actor)? = #isolation) async throws -> [NotificationBadge] {
        try await store.badges(app: app)
    }
}

extension NotificationHost {
    /// Replaces the app's notification categories, on disk before this returns.
    /// - Throws: ``Refusal`` `notificationInvalidNoContent` (1401) naming what is over its limit, or the store's error.
    func setCategories(_ categories: [NotificationCategoryDescriptor], app: String,
                       isolation: isolated (any Actor)? = #isolation) async throws {
        // Checked here as well as in the framework: a client is never trusted to have checked.
        if let problem = NotificationCategoryDescriptor.problem(in: categories) { throw Refusal(code: 1401, message: problem) }
        try await store.setCategories(categories, of: app)
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "setNotificationCategories", app: app,
                           detail: categories.map(\.identifier).sorted().joined(separator: ", ")))
    }

    /// The app's notification categories.
    func categories(app: String, isolation: isolated (any Actor)? = #isolation) async throws -> [NotificationCategoryDescriptor] {
        try await store.categories(of: app)
    }
}
