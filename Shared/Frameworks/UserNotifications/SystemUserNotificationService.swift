/*
Abstract:
The notification center's link to this device's system service: requests over the service's socket, notifications to present back.
*/

import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import ServiceClient
import Synchronization

/// The system side of ``UNUserNotificationCenter/current()`` in an app process: the device's
/// Background Assets service, which keeps the app's answer, its pending requests and its delivered
/// notifications, and shows them on the desktop when there is one.
final class SystemUserNotificationService: UserNotificationService {
    private typealias Arrival = (notification: DeliveredNotificationDescriptor, present: @Sendable (UInt) -> Void)
    private typealias Response = (response: NotificationResponseDescriptor, done: @Sendable () -> Void)

    /// What the connection's reader thread needs to pass a notification on: the listening center's
    /// stream, and the connection to answer on.
    private final class Relay: Sendable {
        let listener = Mutex<AsyncStream<Arrival>.Continuation?>(nil)
        let responseListener = Mutex<AsyncStream<Response>.Continuation?>(nil)
        let connection = Mutex<ServiceConnection?>(nil)

        func receive(_ event: ServerEvent) {
            if case let .notificationResponse(id, response) = event, let connection = connection.withLock({ $0 }) {
                let done: @Sendable () -> Void = {
                    connection.request(.notifications(.answerNotificationResponse(responseID: id))) { _ in }
                }
                guard let continuation = responseListener.withLock({ $0 }) else { return done() }
                continuation.yield((response, done))
                return
            }
            guard case let .notificationWillPresent(id, notification) = event, let connection = connection.withLock({ $0 }) else { return }
            let present: @Sendable (UInt) -> Void = { options in
                connection.request(.notifications(.answerNotificationPresentation(presentationID: id, options: options))) { _ in }
            }
            guard let continuation = listener.withLock({ $0 }) else { return present(0) }
            continuation.yield((notification, present))
        }
    }

    private let relay = Relay()
    private let connection: ServiceConnection

    init(paths: DevicePaths = .current(), identity: ProcessIdentity = .current()) {
        let relay = relay
        connection = ServiceConnection(
            socketPath: paths.serviceSocket.path, hello: identity.hello, launcher: ServiceLauncher.besideExecutable(paths: paths),
            onEvent: { relay.receive($0) })
        relay.connection.withLock { $0 = connection }
    }

    func requestAuthorization(options: UInt) async throws -> Bool {
        let status = try await authorization(.notifications(.requestNotificationAuthorization(options: options)))
        return status == .authorized || status == .provisional || status == .ephemeral
    }

    func authorizationStatus() async -> NotificationAuthorizationStatus {
        (try? await authorization(.notifications(.fetchNotificationAuthorization))) ?? .notDetermined
    }

    func add(_ request: NotificationRequestDescriptor) async throws {
        do {
            _ = try await connection.send(.notifications(.addNotification(request)))
        } catch {
            throw Self.notificationError(error)
        }
    }

    func setBadgeCount(_ count: Int) async throws {
        do {
            _ = try await connection.send(.notifications(.setNotificationBadgeCount(count: count)))
        } catch {
            throw Self.notificationError(error)
        }
    }

    func setCategories(_ categories: [NotificationCategoryDescriptor]) {
        // Queued now, so the notifications the app adds next find their category on the device.
        connection.request(.notifications(.setNotificationCategories(categories))) { result in
            let problem: String? = switch result {
            case let .failure(error): error.localizedDescription
            case let .success(.failure(refusal)): refusal.message
            case .success: nil
            }
            if let problem { FileHandle.standardError.write(Data("UserNotifications: the categories were not kept: \(problem)\n".utf8)) }
        }
    }

    func categories() async -> [NotificationCategoryDescriptor] {
        guard case let .notificationCategories(categories)? = try? await connection.send(.notifications(.fetchNotificationCategories)) else { return [] }
        return categories
    }

    func pendingRequests() async -> [NotificationRequestDescriptor] {
        guard case let .pendingNotifications(requests)? = try? await connection.send(.notifications(.fetchPendingNotifications)) else { return [] }
        return requests
    }

    func deliveredNotifications() async -> [DeliveredNotificationDescriptor] {
        guard case let .deliveredNotifications(list)? = try? await connection.send(.notifications(.fetchDeliveredNotifications(bundleIdentifier: nil, after: nil)))
        else { return [] }
        return list.map(\.notification)
    }

    func removePending(identifiers: [String]?) async {
        _ = try? await connection.send(.notifications(.removeNotifications(.pending, identifiers: identifiers)))
    }

    func removeDelivered(identifiers: [String]?) async {
        _ = try? await connection.send(.notifications(.removeNotifications(.delivered, identifiers: identifiers)))
    }

    func responses() -> AsyncStream<(response: NotificationResponseDescriptor, done: @Sendable () -> Void)> {
        let (stream, continuation) = AsyncStream<Response>.makeStream()
        relay.responseListener.withLock { $0 = continuation }
        return stream
    }

    func arrivals() -> AsyncStream<(notification: DeliveredNotificationDescriptor, present: @Sendable (UInt) -> Void)> {
        let (stream, continuation) = AsyncStream<Arrival>.makeStream()
        relay.listener.withLock { $0 = continuation }
        // The service asks this connection, and a restarted service asks it again, from now on.
        connection.request(.notifications(.setNotificationPresenter(isSet: true))) { _ in }
        connection.replayOnReconnect(.notifications(.setNotificationPresenter(isSet: true)))
        return stream
    }

    private func authorization(_ request: ClientRequest) async throws -> NotificationAuthorizationStatus {
        let response: ServerResponse
        do {
            response = try await connection.send(request)
        } catch {
            throw Self.notificationError(error)
        }
        guard case let .notificationAuthorization(status) = response else { return .notDetermined }
        return status
    }

    /// The service's refusal as UserNotifications' error, with its code; an unreachable service is
    /// `notificationsNotAllowed` too, with the reason.
    private static func notificationError(_ error: any Error) -> UNError {
        let error = error as NSError
        let code = error.domain == UNErrorDomain ? UNError.Code(rawValue: error.code) ?? .notificationsNotAllowed : .notificationsNotAllowed
        return UNError(code, message: error.localizedDescription)
    }
}
