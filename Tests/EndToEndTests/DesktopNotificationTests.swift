/*
Abstract:
End to end: a notification the service delivers reaches a real freedesktop notification server, on a private desktop.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Notifications on a real desktop", .serialized, .timeLimit(.minutes(3)))
struct DesktopNotificationTests {
    static let app = "com.example.apple-samplecode.BackgroundGame"

    @Test("A delivered notification reaches the desktop's notification server over the session bus, with its app, title and body",
          .enabled(if: DesktopSession.runs,
                   "needs Xvfb, dbus-daemon, dunst and notify-send (apt-get install xvfb dbus dunst libnotify-bin); skipped without them"))
    func reachesTheDesktop() async throws {
        try await DesktopSession.with { desktop in
            let root = try TemporaryDeviceRoot()
            defer { root.remove() }
            try await withService(deviceRoot: root.url, configuration: ["idleExitAfter": 60], extraEnvironment: desktop.environment) { _ in
                let game = try await blocking { try RawServiceClient(deviceRoot: root.url, bundleIdentifier: Self.app) }
                _ = try await game.ask(.notifications(.requestNotificationAuthorization(options: 4)))
                let content = NotificationContentDescriptor(title: "Ready to play", body: "Game data version 1 is installed.")
                let request = NotificationRequestDescriptor(
                    identifier: "ready-to-play", content: content, trigger: NotificationTriggerDescriptor(timeInterval: 1, repeats: false))
                #expect(try await game.ask(.notifications(.addNotification(request))) == .done)

                try await poll(until: { try await desktop.control(["count", "displayed"]).standardOutput.hasPrefix("1") },
                               interval: .milliseconds(100), "the notification shown on the desktop")
                // BA_DESKTOP_SCREENSHOT=FILE keeps what the desktop shows now, for the docs.
                if let path = ProcessInfo.processInfo.environment["BA_DESKTOP_SCREENSHOT"] {
                    try await desktop.screenshot(to: URL(fileURLWithPath: path))
                }
                let received = try await desktop.receivedNotifications()
                #expect(received.count == 1, "\(received)")
                #expect(received.first?.appName == Self.app)
                #expect(received.first?.summary == "Ready to play")
                #expect(received.first?.body == "Game data version 1 is installed.")
            }
        }
    }
}
