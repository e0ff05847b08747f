/*
Abstract:
Routing between the service and its notification host: the app's requests, the debug tool's list, and the answers of the app's delegate.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers the notification requests of an app or the debug tool.
    func handleNotificationRequest(_ request: ClientRequest.Notifications, hello: Hello, connection: UInt64) async -> ServerResponse {
        let app = hello.bundleIdentifier
        // The debug tool reads any app's delivered notifications and badges; the rest is an app's own.
        let isTool = hello.role == .tool
        if isTool, let action = request.appOnlyAction { return appOnly(action) }
        do {
            switch request {
            case .requestNotificationAuthorization:
                guard hello.role == .app else { return appOnly("ask to post notifications") }
                return .notificationAuthorization(try await notifications.requestAuthorization(app: app))
            case .fetchNotificationAuthorization:
                return .notificationAuthorization(try await notifications.authorization(of: app))
            case let .addNotification(descriptor):
                try await notifications.add(descriptor, app: app)
                return .done
            case .fetchPendingNotifications:
                return .pendingNotifications(notifications.pendingRequests(of: app))
            case let .fetchDeliveredNotifications(bundleIdentifier, after):
                // The debug tool lists any app's, or every app's; an app lists its own.
                let listed = isTool ? bundleIdentifier : app
                return .deliveredNotifications(try await notifications.delivered(app: listed, after: after))
            case let .removeNotifications(list, identifiers):
                try await notifications.remove(list, identifiers: identifiers, app: app)
                return .done
            case let .setNotificationPresenter(isSet):
                guard hello.role == .app, let client = clients[connection] else { return appOnly("present notifications") }
                notifications.setPresenter(isSet, app: app, connection: client.connection)
                return .done
            case let .answerNotificationPresentation(presentationID, options):
                await notifications.answerPresentation(presentationID, options: options)
                return .done
            case let .setNotificationBadgeCount(count):
                try await notifications.setBadge(count, app: app)
                return .done
            case let .fetchNotificationBadges(bundleIdentifier):
                // The debug tool lists any app's, or every app's; an app reads its own.
                return .notificationBadges(try await notifications.badges(app: isTool ? bundleIdentifier : app))
            case let .setNotificationCategories(categories):
                try await notifications.setCategories(categories, app: app)
                return .done
            case .fetchNotificationCategories:
                return .notificationCategories(try await notifications.categories(app: app))
            case let .answerNotificationResponse(responseID):
                if let answered = notifications.responseHandled(responseID) { endBackgroundLaunchIfIdle(app: answered) }
                return .done
            }
        } catch {
            return notificationFailure(error)
        }
    }

    /// A person answers an app's delivered notification with an action (the debug tool's `notifications --respond`).
    func respondToNotification(bundleIdentifier: String?, identifier: String, action: String, text: String?) async -> ServerResponse {
        guard let target = bundleIdentifier else {
            return .failure(WireFailure(domain: NotificationHost.errorDomain, code: 1,
                                        message: "Name the app whose notification is answered: notifications --respond ID -b APP."))
        }
        do {
            if try await !notifications.respond(app: target, identifier: identifier, action: action, text: text) {
                // No delegate of the app listens: launch it, as a tap on the notification does.
                await launchAppInBackground(target, for: .notificationResponse(identifier: identifier))
            }
            return .done
        } catch {
            return notificationFailure(error)
        }
    }

    private func notificationFailure(_ error: any Error) -> ServerResponse {
        if let refusal = error as? NotificationHost.Refusal {
            return .failure(WireFailure(domain: NotificationHost.errorDomain, code: refusal.code, message: refusal.message))
        }
        return .failure(WireFailure(domain: NotificationHost.errorDomain, code: 1, message: "The device could not keep the notification: \(error)."))
    }

    /// A connection closed: presentations it owed are listed.
    func notificationsConnectionClosed(_ connection: UInt64) async {
        await notifications.connectionClosed(connection)
    }

    private func appOnly(_ what: String) -> ServerResponse {
        .failure(WireFailure(domain: NotificationHost.errorDomain, code: 1, message: "Only an app may \(what); the debug tool lists them with backgroundassets-debug notifications."))
    }
}

extension ClientRequest.Notifications {
    /// What the request does, for the refusal the debug tool gets; `nil` for the two reads the tool
    /// may make of any app.
    var appOnlyAction: String? {
        switch self {
        case .fetchDeliveredNotifications, .fetchNotificationBadges: nil
        case .requestNotificationAuthorization: "ask to post notifications"
        case .fetchNotificationAuthorization: "read its notification authorization"
        case .addNotification: "post notifications"
        case .fetchPendingNotifications: "list its pending notifications"
        case .removeNotifications: "remove its notifications"
        case .setNotificationPresenter: "present notifications"
        case .answerNotificationPresentation: "answer how a notification is presented"
        case .setNotificationBadgeCount: "set its badge"
        case .setNotificationCategories: "declare notification categories"
        case .fetchNotificationCategories: "read its notification categories"
        case .answerNotificationResponse: "answer a notification's response"
        }
    }
}
