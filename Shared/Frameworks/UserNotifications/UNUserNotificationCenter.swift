/*
Abstract:
The app's notification center: authorization, scheduling, pending and delivered notifications, and the delegate.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// The central object for managing notification-related activities for the app.
///
/// ```swift
/// let center = UNUserNotificationCenter.current()
/// let granted = try await center.requestAuthorization(options: [.alert, .sound])
/// try await center.add(UNNotificationRequest(identifier: "ready", content: content, trigger: nil))
/// ```
/// The device keeps each app's answer and its delivered notifications; `backgroundassets-debug
/// notifications` lists them, and a desktop with a notification service shows them.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    // @unchecked: the delegate and the listener are behind locks; the service is immutable.
    private static let shared = UNUserNotificationCenter(service: SystemUserNotificationService())

    /// Returns the app's notification center.
    open class func current() -> UNUserNotificationCenter { shared }

    let service: any UserNotificationService
    private let weakDelegate = Mutex<WeakDelegate>(WeakDelegate())
    private let listener = Mutex<Task<Void, Never>?>(nil)
    /// The categories this process registered, answered until the device has them.
    let registeredCategories = Mutex<[NotificationCategoryDescriptor]?>(nil)

    /// Creates a center on a system: the service's client, or an in-memory system in tests.
    package init(service: any UserNotificationService) {
        self.service = service
    }

    deinit {
        listener.withLock { $0?.cancel() }
    }

    /// The object that handles notifications that arrive while the app runs; held weakly, as Apple's.
    open var delegate: (any UNUserNotificationCenterDelegate)? {
        get { weakDelegate.withLock { $0.value } }
        set {
            weakDelegate.withLock { $0.value = newValue }
            if newValue != nil { startListening() }
        }
    }

    // MARK: - Authorization

    /// Requests the person's authorization to notify; asked once, remembered by the device.
    open func requestAuthorization(options: UNAuthorizationOptions = [],
                                   completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await requestAuthorization(options: options), nil) } catch { completionHandler(false, error) }
        }
    }

    /// Requests the person's authorization to notify; asked once, remembered by the device.
    /// - Returns: Whether the app may notify.
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        try await service.requestAuthorization(options: options.rawValue)
    }

    /// The app's notification settings.
    open func notificationSettings() async -> UNNotificationSettings {
        UNNotificationSettings(authorizationStatus: await service.authorizationStatus())
    }

    /// The app's notification settings, to a completion handler.
    open func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        Task { completionHandler(await notificationSettings()) }
    }

    // MARK: - Scheduling

    /// Schedules a notification; the device keeps it on disk until it is delivered.
    /// - Throws: `UNError` `notificationsNotAllowed` when the app is not authorized; an invalid
    ///   trigger is refused with its reason (`notificationInvalidNoDate`).
    /// - Note: The device keeps an app's soonest-firing 64 pending requests and discards the rest,
    ///   as Apple's does. Unlike Apple's, it refuses a field over its size limit (4,096 bytes of body
    ///   or `userInfo` JSON, 1,024 of title or subtitle) with `notificationInvalidNoContent`, naming
    ///   the field, its size and the limit.
    open func add(_ request: UNNotificationRequest) async throws {
        let descriptor = request.descriptor
        if let refusal = descriptor.trigger?.refusal { throw UNError(.notificationInvalidNoDate, message: refusal) }
        // Refused here before the bytes travel; the service checks again, since it trusts no client.
        if let problem = descriptor.limitProblem() { throw UNError(.notificationInvalidNoContent, message: problem) }
        try await service.add(descriptor)
    }

    /// Schedules a notification; the handler receives the error, if any.
    open func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        Task {
            do {
                try await add(request)
                completionHandler?(nil)
            } catch {
                completionHandler?(error)
            }
        }
    }

    /// The requests not yet delivered.
    open func pendingNotificationRequests() async -> [UNNotificationRequest] {
        await service.pendingRequests().map(UNNotificationRequest.init)
    }

    /// The requests not yet delivered, to a completion handler.
    open func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void) {
        Task { completionHandler(await pendingNotificationRequests()) }
    }

    /// The app's delivered notifications that are still shown.
    open func deliveredNotifications() async -> [UNNotification] {
        await service.deliveredNotifications().map(UNNotification.init)
    }

    /// The app's delivered notifications, to a completion handler.
    open func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        Task { completionHandler(await deliveredNotifications()) }
    }

    // MARK: - Removal

    /// Removes pending requests with these identifiers.
    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        inBackground { await $0.removePending(identifiers: identifiers) }
    }

    /// Removes every pending request.
    open func removeAllPendingNotificationRequests() {
        inBackground { await $0.removePending(identifiers: nil) }
    }

    /// Removes delivered notifications with these identifiers.
    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        inBackground { await $0.removeDelivered(identifiers: identifiers) }
    }

    /// Removes every delivered notification.
    open func removeAllDeliveredNotifications() {
        inBackground { await $0.removeDelivered(identifiers: nil) }
    }

    /// Asks the system without waiting, as Apple's removal methods return at once.
    private func inBackground(_ body: @escaping @Sendable (any UserNotificationService) async -> Void) {
        let service = service
        Task { await body(service) }
    }

    // MARK: - While the app runs

    /// Reads the notifications due while the app runs and asks the delegate how to present each.
    private func startListening() {
        listener.withLock { listener in
            guard listener == nil else { return }
            // Answers first: the service sends them as soon as arrivals() says the app listens.
            let responses = service.responses()
            let arrivals = service.arrivals()
            listener = Task { [weak self] in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { [weak self] in
                        for await (response, done) in responses {
                            guard let self else { return done() }
                            await self.deliver(UNNotificationResponse.make(response))
                            done()
                        }
                    }
                    group.addTask { [weak self] in
                        for await (notification, present) in arrivals {
                            guard let self else { return }
                            present(await self.presentationOptions(for: UNNotification(notification)).rawValue)
                        }
                    }
                }
            }
        }
    }

    /// Hands a person's answer to the delegate; without one, nobody hears it, as on Apple platforms.
    private func deliver(_ response: UNNotificationResponse) async {
        guard let delegate else { return }
        await delegate.userNotificationCenter(self, didReceive: response)
    }

    private func presentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions {
        // Without a delegate the system does not show a notification to a running app, as on Apple platforms.
        guard let delegate else { return [] }
        return await delegate.userNotificationCenter(self, willPresent: notification)
    }
}

/// A weak reference to the delegate, as Apple's center holds it.
private struct WeakDelegate: @unchecked Sendable {
    // @unchecked: only read and written under the center's lock.
    weak var object: AnyObject?
    var value: (any UNUserNotificationCenterDelegate)? {
        get { object as? any UNUserNotificationCenterDelegate }
        set { object = newValue }
    }
}
