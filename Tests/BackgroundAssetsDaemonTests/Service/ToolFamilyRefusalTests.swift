/*
Abstract:
Tests that the service refuses the debug tool's family of requests to every other role, and the tool what is an app's own.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("The debug tool's family of requests", .serialized, .timeLimit(.minutes(2)))
struct ToolFamilyRefusalTests {
    /// One request of every case of the tool's family.
    static let toolRequests: [ClientRequest.Tool] = [
        .install(InstallRequest(appPlistPath: "/nowhere/App.plist", extensionPlistPath: "/nowhere/Extension.plist",
                                executablesDirectory: "/nowhere", version: "1")),
        .uninstall(bundleIdentifier: nil),
        .simulate(.periodic, bundleIdentifier: nil),
        .updateSettings(SettingsChange(lowPowerMode: true)),
        .simulateTask(.launch, identifier: "com.example.task", bundleIdentifier: nil),
        .resetDeviceClock,
        .forceQuit(bundleIdentifier: nil),
        .purgeAssetPacks(bundleIdentifier: nil, bytes: nil),
        .respondToNotification(bundleIdentifier: nil, identifier: "n", actionIdentifier: "a", userText: nil),
    ]

    @Test("An app or an extension is refused every request of the tool's family, naming the tool's command, and nothing changes")
    func otherRolesRefused() async throws {
        try await InProcessService.with { device in
            let app = try await device.client("com.example.not-the-tool", role: .app)
            let appExtension = try await device.client("com.example.not-the-tool", role: .extension)
            for request in Self.toolRequests {
                for client in [app, appExtension] {
                    guard case let .failure(failure) = try await client.ask(.tool(request)) else {
                        Issue.record("\(request) was not refused")
                        continue
                    }
                    #expect(failure.code == BAError.Code.callerConnectionNotAccepted.rawValue, "\(request)")
                    #expect(failure.message.hasPrefix("Only backgroundassets-debug may \(request.command);"), "\(failure.message)")
                }
            }
            #expect(await device.service.settings.lowPowerMode == false, "the refused settings change was applied")
        }
    }

    @Test("The tool may read any app's delivered notifications and badges, but not act as an app")
    func toolReadsButDoesNotPost() async throws {
        try await InProcessService.with { device in
            let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
            #expect(try await tool.ask(.notifications(.fetchNotificationBadges(bundleIdentifier: nil))) == .notificationBadges([]))
            let refused: [ClientRequest.Notifications] = [
                .setNotificationBadgeCount(count: 1), .fetchPendingNotifications, .setNotificationCategories([]),
            ]
            for request in refused {
                guard case let .failure(failure) = try await tool.ask(.notifications(request)) else {
                    Issue.record("the tool's \(request) was not refused")
                    continue
                }
                #expect(failure.domain == NotificationHost.errorDomain, "\(request)")
                #expect(failure.message.hasPrefix("Only an app may"), "\(failure.message)")
            }
        }
    }
}
