/*
Abstract:
Tells the player about the game data with local notifications: asks once, then posts.
*/

import Foundation
import UserNotifications

/// The game's local notifications.
enum GameNotifications {
    /// Asks the player, once, whether the game may notify; later calls get the recorded answer.
    @discardableResult
    static func requestAuthorization() async -> Bool {
        (try? await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound])) ?? false
    }

    /// Posts a notification now. A game the player did not allow to notify posts nothing.
    static func post(identifier: String, title: String, body: String) async {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        content.sound = .default
        // No trigger: deliver it right away.
        let request = UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
        do {
            try await UNUserNotificationCenter.current().add(request)
        } catch {
            print("The notification \(identifier) was not posted: \(error.localizedDescription)")
        }
    }
}
