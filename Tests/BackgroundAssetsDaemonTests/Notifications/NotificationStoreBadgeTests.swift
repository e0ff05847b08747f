/*
Abstract:
Tests of the notification store's badges and categories: kept across a reopen, replaced, removed with the app.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Notification badges and categories in the store")
struct NotificationStoreBadgeTests {
    let category = NotificationCategoryDescriptor(
        identifier: "LEVELS_READY", actions: [NotificationActionDescriptor(identifier: "PLAY", title: "Play now", options: 4)],
        intentIdentifiers: [], options: 1)

    @Test("Badges and categories survive a reopen of the store; 0 and an empty set remove them; removing the app forgets both")
    func keptAndRemoved() async throws {
        let directory = try TemporaryDirectory(prefix: "notification-badges")
        defer { directory.remove() }
        let file = directory.url.appending(path: "notifications.sqlite")
        do {
            let store = try NotificationStore(url: file)
            try await store.setBadge(3, of: "com.example.game")
            try await store.setBadge(1, of: "com.example.other")
            try await store.setCategories([category], of: "com.example.game")
        }
        let store = try NotificationStore(url: file)
        #expect(try await store.badges() == [NotificationBadge(bundleIdentifier: "com.example.game", count: 3),
                                             NotificationBadge(bundleIdentifier: "com.example.other", count: 1)])
        #expect(try await store.categories(of: "com.example.game") == [category])
        #expect(try await store.categories(of: "com.example.other").isEmpty)

        try await store.setBadge(0, of: "com.example.other")
        #expect(try await store.badges(app: "com.example.other").isEmpty)
        try await store.removeApp("com.example.game")
        #expect(try await store.badges().isEmpty)
        #expect(try await store.categories(of: "com.example.game").isEmpty)
    }
}
