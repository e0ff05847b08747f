/*
Abstract:
Tests of the service's notifications: answers from the settings, due requests, willPresent, the store, and the desktop.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Notifications in the service")
struct NotificationSubsystemTests {
    let now = Date(timeIntervalSince1970: 2_000_000)
    let content = NotificationContentDescriptor(title: "Download complete", body: "New levels are ready.")

    func request(_ identifier: String, after interval: TimeInterval? = nil, repeats: Bool = false) -> NotificationRequestDescriptor {
        NotificationRequestDescriptor(identifier: identifier, content: content,
                                      trigger: interval.map { NotificationTriggerDescriptor(timeInterval: $0, repeats: repeats) })
    }

    @Test("The answer follows the app's setting, else the device's default")
    func answers() {
        #expect(NotificationPolicy.answer(appSetting: nil, deviceDefault: true) == .authorized)
        #expect(NotificationPolicy.answer(appSetting: false, deviceDefault: true) == .denied)
        #expect(NotificationPolicy.answer(appSetting: true, deviceDefault: false) == .authorized)
    }

    @Test("Requests are delivered when due; a repeating one comes back; a running app is asked first")
    func delivery() {
        var state = NotificationState()
        #expect(state.add(request("now"), app: "com.example.game", now: now)
            == [.record(app: "com.example.game", DeliveredNotificationDescriptor(request: request("now"), date: now)),
                .showOnDesktop(app: "com.example.game", content)])
        let later = request("later", after: 60, repeats: true)
        #expect(state.add(later, app: "com.example.game", now: now)
            == [.storePending(app: "com.example.game", kept: [PendingNotification(app: "com.example.game", request: later, due: now.addingTimeInterval(60))],
                              forgotten: [])], "a pending request is stored; one due at once never is")
        #expect(state.nextDueDate == now.addingTimeInterval(60))
        state.setRunning(app: "com.example.game", connection: 4)
        let due = state.deliverDue(now: now.addingTimeInterval(60))
        let delivery = DeliveredNotificationDescriptor(request: later, date: now.addingTimeInterval(60))
        let again = PendingNotification(app: "com.example.game", request: later, due: now.addingTimeInterval(120))
        #expect(due == [.storePending(app: "com.example.game", kept: [again], forgotten: []),
                        .askToPresent(app: "com.example.game", connection: 4, delivery)], "stored again before it is delivered")
        #expect(state.nextDueDate == now.addingTimeInterval(120), "a repeating request is scheduled again")
        #expect(state.presented(delivery, app: "com.example.game", options: 0).isEmpty, "[] presents nothing")
        #expect(state.presented(delivery, app: "com.example.game", options: 8) == [.record(app: "com.example.game", delivery)])
        #expect(state.removePending(app: "com.example.game", identifiers: nil)
            == [.storePending(app: "com.example.game", kept: [], forgotten: ["later"])])
        #expect(state.pendingRequests(of: "com.example.game").isEmpty)
    }

    @Test("The store keeps answers and the newest delivered notifications per app")
    func store() async throws {
        let directory = try TemporaryDirectory(prefix: "notification-store")
        let store = try NotificationStore(url: directory.url.appending(path: "notifications.sqlite"))
        #expect(try await store.authorization(of: "com.example.game") == .notDetermined)
        try await store.setAuthorization(.denied, of: "com.example.game")
        #expect(try await store.authorization(of: "com.example.game") == .denied)
        for index in 0..<(NotificationPolicy.deliveredLimit + 2) {
            try await store.record(DeliveredNotificationDescriptor(request: request("n\(index)"), date: now), app: "com.example.game")
        }
        try await store.record(DeliveredNotificationDescriptor(request: request("other"), date: now), app: "com.example.other")
        let kept = try await store.delivered(app: "com.example.game")
        #expect(kept.count == NotificationPolicy.deliveredLimit)
        #expect(kept.first?.notification.request.identifier == "n2", "the oldest go first")
        try await store.removeDelivered(app: "com.example.game", identifiers: nil)
        #expect(try await store.delivered().map(\.bundleIdentifier) == ["com.example.other"])
    }

    @Test("Without a session bus nothing is shown and nothing fails; with one, notify-send gets the notification")
    func desktop() throws {
        #expect(!DesktopNotifier(environment: ["PATH": "/usr/bin:/bin"]).isAvailable)
        #expect(!DesktopNotifier(environment: ["PATH": "/usr/bin:/bin"]).show(app: "com.example.game", content: content))

        let directory = try TemporaryDirectory(prefix: "notify-send")
        let log = directory.url.appending(path: "arguments")
        let script = directory.url.appending(path: "notify-send")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(log.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let notifier = DesktopNotifier(environment: ["PATH": directory.url.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/bus"])
        #expect(notifier.show(app: "com.example.game", content: content))
        #expect(try String(contentsOf: log, encoding: .utf8)
            == "--app-name=com.example.game\n--\nDownload complete\nNew levels are ready.\n")
    }
}
