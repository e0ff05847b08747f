/*
Abstract:
One message of every local-notification case, each named after the frame file that pins its bytes.
*/

import BackgroundAssetsIPC
import Foundation

extension SampleMessages {
    static let notificationCategory = NotificationCategoryDescriptor(
        identifier: "LEVELS_READY", actions: [
            NotificationActionDescriptor(identifier: "PLAY", title: "Play now", options: 4),
            NotificationActionDescriptor(identifier: "REPLY", title: "Reply", options: 0, textInputButtonTitle: "Send",
                                         textInputPlaceholder: "Message"),
        ], intentIdentifiers: [], options: 1)

    static let notificationRequest = NotificationRequestDescriptor(
        identifier: "game-data-ready",
        content: NotificationContentDescriptor(
            title: "Ready to play", subtitle: "Version 2", body: "The new levels are on your device.", badge: 1,
            playsSound: true, threadIdentifier: "game-data", categoryIdentifier: "READY",
            userInfoJSON: Data(#"{"version":2}"#.utf8)),
        trigger: NotificationTriggerDescriptor(timeInterval: 5, repeats: false))

    static let deliveredNotification = DeliveredNotificationDescriptor(
        request: notificationRequest, date: Date(timeIntervalSince1970: 1_800_000_000))

    static let notificationFrames: [GoldenFrame] = {
        let requests: [(String, ClientRequest)] = [
            ("notifications.requestNotificationAuthorization", .notifications(.requestNotificationAuthorization(options: 7))),
            ("notifications.fetchNotificationAuthorization", .notifications(.fetchNotificationAuthorization)),
            ("notifications.addNotification", .notifications(.addNotification(notificationRequest))),
            ("notifications.fetchPendingNotifications", .notifications(.fetchPendingNotifications)),
            ("notifications.fetchDeliveredNotifications", .notifications(.fetchDeliveredNotifications(bundleIdentifier: "com.example.game", after: 41))),
            ("notifications.removeNotifications", .notifications(.removeNotifications(.delivered, identifiers: ["game-data-ready"]))),
            ("notifications.setNotificationPresenter", .notifications(.setNotificationPresenter(isSet: true))),
            ("notifications.answerNotificationPresentation", .notifications(.answerNotificationPresentation(presentationID: 5, options: 24))),
            ("notifications.setNotificationBadgeCount", .notifications(.setNotificationBadgeCount(count: 3))),
            ("notifications.fetchNotificationBadges", .notifications(.fetchNotificationBadges(bundleIdentifier: "com.example.game"))),
            ("notifications.setNotificationCategories", .notifications(.setNotificationCategories([notificationCategory]))),
            ("notifications.fetchNotificationCategories", .notifications(.fetchNotificationCategories)),
            ("tool.respondToNotification", .tool(.respondToNotification(
                bundleIdentifier: "com.example.game", identifier: "game-data-ready", actionIdentifier: "REPLY", userText: "Later"))),
            ("notifications.answerNotificationResponse", .notifications(.answerNotificationResponse(responseID: 6))),
        ]
        let answers: [(String, ServerResponse)] = [
            ("notificationAuthorization", .notificationAuthorization(.authorized)),
            ("pendingNotifications", .pendingNotifications([notificationRequest])),
            ("deliveredNotifications", .deliveredNotifications([
                DeliveredNotificationRecord(bundleIdentifier: "com.example.game", sequence: 42, notification: deliveredNotification),
            ])),
            ("notificationBadges", .notificationBadges([NotificationBadge(bundleIdentifier: "com.example.game", count: 3)])),
            ("notificationCategories", .notificationCategories([notificationCategory])),
        ]
        return requests.map { GoldenFrame(request: $0.1, named: $0.0) }
            + answers.map { GoldenFrame(server: .response(id: 42, response: $0.1), named: "response.\($0.0)") }
            + [GoldenFrame(server: .event(.notificationWillPresent(presentationID: 5, notification: deliveredNotification)),
                           named: "event.notificationWillPresent"),
               GoldenFrame(server: .event(.notificationResponse(responseID: 6, response: NotificationResponseDescriptor(
                   notification: deliveredNotification, actionIdentifier: "REPLY", userText: "Later"))),
                           named: "event.notificationResponse")]
    }()
}
