/*
Abstract:
The notification center's link to this device's system service, which does not serve notifications yet.
*/

import BackgroundAssetsIPC
import Foundation

/// The system side of ``UNUserNotificationCenter/current()`` in an app process.
///
/// - Note: The service's notifications subsystem (`Server/System/BackgroundAssetsDaemon/Notifications/`)
///   is not yet reachable over the service's socket. Until it is, authorization is not determined,
///   `requestAuthorization(options:)` and `add(_:)` throw an error that says so, and the lists are empty.
struct SystemUserNotificationService: UserNotificationService {
    func requestAuthorization(options: UInt) async throws -> Bool {
        throw unavailable("asking to notify")
    }

    func authorizationStatus() async -> NotificationAuthorizationStatus { .notDetermined }

    func add(_ request: NotificationRequestDescriptor) async throws {
        throw unavailable("scheduling the notification \(request.identifier)")
    }

    func pendingRequests() async -> [NotificationRequestDescriptor] { [] }
    func deliveredNotifications() async -> [DeliveredNotificationDescriptor] { [] }
    func removePending(identifiers: [String]?) async {}
    func removeDelivered(identifiers: [String]?) async {}

    func arrivals() -> AsyncStream<(notification: DeliveredNotificationDescriptor, present: @Sendable (UInt) -> Void)> {
        AsyncStream { $0.finish() }
    }

    private func unavailable(_ what: String) -> UNError {
        UNError(.notificationsNotAllowed, message: "The Background Assets service of this device does not keep "
            + "notifications yet, so \(what) is not possible; tell the person in the app's own output instead.")
    }
}
