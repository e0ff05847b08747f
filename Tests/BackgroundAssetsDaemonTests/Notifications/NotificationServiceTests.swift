/*
Abstract:
Notifications through the service in the test process: the device's answer, delivery on its clock, the list, a denied app, and willPresent.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Notifications through the service", .serialized, .timeLimit(.minutes(3)))
struct NotificationServiceTests {
    static let content = NotificationContentDescriptor(title: "Download complete", body: "New levels are ready.")

    static func request(_ identifier: String, after interval: TimeInterval? = nil) -> NotificationRequestDescriptor {
        NotificationRequestDescriptor(identifier: identifier, content: content,
                                      trigger: interval.map { NotificationTriggerDescriptor(timeInterval: $0, repeats: false) })
    }

    private func delivered(_ tool: RawServiceClient, app: String? = nil) async throws -> [DeliveredNotificationRecord] {
        guard case let .deliveredNotifications(list) = try await tool.ask(.notifications(.fetchDeliveredNotifications(bundleIdentifier: app, after: nil))) else {
            throw TestSupportError("no list")
        }
        return list
    }

    @Test("An app asks once, the device allows it by default, and its notification is delivered when its trigger fires")
    func allowedAndDelivered() async throws {
        let device = try await InProcessService()
        let game = try await device.recordingClient()
        let tool = try await device.recordingClient("com.example.backgroundassets-debug", role: .tool)
        #expect(try await game.ask(.notifications(.fetchNotificationAuthorization)) == .notificationAuthorization(.notDetermined))
        #expect(try await game.ask(.notifications(.requestNotificationAuthorization(options: 7))) == .notificationAuthorization(.authorized))
        // Asked once: a later change of the default does not change the recorded answer.
        _ = try await tool.ask(.tool(.updateSettings(SettingsChange(notifications: false))))
        #expect(try await game.ask(.notifications(.requestNotificationAuthorization(options: 7))) == .notificationAuthorization(.authorized))

        let sleepers = device.clock.sleeperCount
        #expect(try await game.ask(.notifications(.addNotification(Self.request("ready", after: 5)))) == .done)
        #expect(try await game.ask(.notifications(.fetchPendingNotifications)) == .pendingNotifications([Self.request("ready", after: 5)]))
        #expect(try await delivered(tool).isEmpty)
        try await device.waitForTimers(sleepers + 1)
        device.clock.advance(by: .seconds(4))
        #expect(try await delivered(tool).isEmpty, "4 s in, it is not due")
        device.clock.advance(by: .seconds(2))
        let list = try await poll("the notification delivered") { () -> [DeliveredNotificationRecord]? in
            let list = try await delivered(tool, app: "com.example.game")
            return list.isEmpty ? nil : list
        }
        #expect(list.map(\.notification.request.identifier) == ["ready"])
        #expect(list.first?.bundleIdentifier == "com.example.game")
        #expect(try await game.ask(.notifications(.fetchPendingNotifications)) == .pendingNotifications([]))
        // --follow asks for what came after the last it showed.
        #expect(try await tool.ask(.notifications(.fetchDeliveredNotifications(bundleIdentifier: nil, after: list.last?.sequence))) == .deliveredNotifications([]))
        await device.stop()
    }

    @Test("A denied app's notification is refused with notificationsNotAllowed and never recorded")
    func denied() async throws {
        let device = try await InProcessService()
        let tool = try await device.recordingClient("com.example.backgroundassets-debug", role: .tool)
        _ = try await tool.ask(.tool(.updateSettings(SettingsChange(app: "com.example.game", notifications: false))))
        let game = try await device.recordingClient()
        #expect(try await game.ask(.notifications(.requestNotificationAuthorization(options: 4))) == .notificationAuthorization(.denied))
        guard case let .failure(failure) = try await game.ask(.notifications(.addNotification(Self.request("ready")))) else {
            throw TestSupportError("a denied app posted a notification")
        }
        #expect(failure.domain == "UNErrorDomain" && failure.code == 1)
        #expect(try await delivered(tool).isEmpty)
        // Allowed later in Settings: the next request is delivered.
        _ = try await tool.ask(.tool(.updateSettings(SettingsChange(app: "com.example.game", notifications: true))))
        #expect(try await game.ask(.notifications(.addNotification(Self.request("ready")))) == .done)
        #expect(try await delivered(tool).count == 1)
        await device.stop()
    }

    @Test("A running app's delegate decides: .list keeps the notification, [] does not")
    func willPresent() async throws {
        let device = try await InProcessService()
        let game = try await device.recordingClient()
        let tool = try await device.recordingClient("com.example.backgroundassets-debug", role: .tool)
        _ = try await game.ask(.notifications(.requestNotificationAuthorization(options: 4)))
        #expect(try await game.ask(.notifications(.setNotificationPresenter(isSet: true))) == .done)
        for (identifier, options) in [("hidden", UInt(0)), ("listed", UInt(8))] {
            #expect(try await game.ask(.notifications(.addNotification(Self.request(identifier)))) == .done)
            let presented: @Sendable (ServerEvent) -> Bool = {
                if case let .notificationWillPresent(_, n) = $0 { n.request.identifier == identifier } else { false }
            }
            let event = try await game.event(presented).last(where: presented)
            guard case let .notificationWillPresent(id, _) = event else { return }
            #expect(try await game.ask(.notifications(.answerNotificationPresentation(presentationID: id, options: options))) == .done)
        }
        #expect(try await delivered(tool).map(\.notification.request.identifier) == ["listed"])
        await device.stop()
    }
}
