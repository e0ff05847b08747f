/*
Abstract:
An in-memory system for the notification center's tests: an answer to the authorization question, pending and delivered lists.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
@testable import UserNotifications

/// Plays the system for ``UNUserNotificationCenter``: the person's answer is set by the test, and
/// pending requests are delivered when the test fires them.
final class InMemoryNotificationSystem: UserNotificationService {
    struct State {
        var answer: Bool
        var status = NotificationAuthorizationStatus.notDetermined
        var questions = 0
        var pending: [NotificationRequestDescriptor] = []
        var delivered: [DeliveredNotificationDescriptor] = []
        var badge = 0
        var categories: [NotificationCategoryDescriptor] = []
        var responder: AsyncStream<(response: NotificationResponseDescriptor, done: @Sendable () -> Void)>.Continuation?
        var handledResponses = 0
        var listener: AsyncStream<(notification: DeliveredNotificationDescriptor, present: @Sendable (UInt) -> Void)>.Continuation?
        var warnings: [String] = []
    }

    let state: Mutex<State>

    init(answer: Bool) {
        state = Mutex(State(answer: answer))
    }

    var questionsAsked: Int { state.withLock { $0.questions } }

    /// What the center refused and said, in order; a real app's client writes these lines to standard error.
    var warnings: [String] { state.withLock { $0.warnings } }

    func warn(_ message: String) {
        state.withLock { $0.warnings.append(message) }
    }

    func requestAuthorization(options: UInt) async throws -> Bool {
        state.withLock { state in
            if state.status == .notDetermined {
                state.questions += 1
                state.status = state.answer ? .authorized : .denied
            }
            return state.status == .authorized
        }
    }

    func authorizationStatus() async -> NotificationAuthorizationStatus { state.withLock { $0.status } }

    func add(_ request: NotificationRequestDescriptor) async throws {
        let authorized = state.withLock { $0.status == .authorized }
        guard authorized else {
            throw UNError(.notificationsNotAllowed, message: "Notifications are not allowed for this application.")
        }
        state.withLock { state in
            state.pending.removeAll { $0.identifier == request.identifier }
            state.pending.append(request)
        }
        if request.trigger == nil { fire(request.identifier, at: Date(timeIntervalSince1970: 0)) }
    }

    /// Delivers a pending request: to the running app's delegate first, else straight to the list.
    func fire(_ identifier: String, at date: Date) {
        let (request, listener) = state.withLock { state in
            (state.pending.first { $0.identifier == identifier }, state.listener)
        }
        guard let request else { return }
        state.withLock { $0.pending.removeAll { $0.identifier == identifier } }
        let delivery = DeliveredNotificationDescriptor(request: request, date: date)
        guard let listener else { return record(delivery) }
        listener.yield((delivery, { [self] options in
            // .list (8) or .banner (16) keeps it among the delivered notifications.
            if options & (8 | 16) != 0 { record(delivery) }
        }))
    }

    private func record(_ delivery: DeliveredNotificationDescriptor) {
        state.withLock { $0.delivered.append(delivery) }
    }

    func setBadgeCount(_ count: Int) async throws {
        state.withLock { $0.badge = count }
    }

    var badge: Int { state.withLock { $0.badge } }

    func setCategories(_ categories: [NotificationCategoryDescriptor]) {
        state.withLock { $0.categories = categories }
    }

    func categories() async -> [NotificationCategoryDescriptor] { state.withLock { $0.categories } }

    func pendingRequests() async -> [NotificationRequestDescriptor] { state.withLock { $0.pending } }
    func deliveredNotifications() async -> [DeliveredNotificationDescriptor] { state.withLock { $0.delivered } }

    func removePending(identifiers: [String]?) async {
        state.withLock { state in state.pending.removeAll { identifiers?.contains($0.identifier) ?? true } }
    }

    func removeDelivered(identifiers: [String]?) async {
        state.withLock { state in state.delivered.removeAll { identifiers?.contains($0.request.identifier) ?? true } }
    }

    func responses() -> AsyncStream<(response: NotificationResponseDescriptor, done: @Sendable () -> Void)> {
        let (stream, continuation) = AsyncStream<(response: NotificationResponseDescriptor, done: @Sendable () -> Void)>.makeStream()
        state.withLock { $0.responder = continuation }
        return stream
    }

    /// A person answers a delivered notification, as the debug tool's --respond does.
    func respond(to identifier: String, action: String, text: String? = nil) {
        let (delivery, responder) = state.withLock { state in
            (state.delivered.last { $0.request.identifier == identifier }, state.responder)
        }
        guard let delivery, let responder else { return }
        responder.yield((NotificationResponseDescriptor(notification: delivery, actionIdentifier: action, userText: text),
                         { [self] in state.withLock { $0.handledResponses += 1 } }))
    }

    var handledResponses: Int { state.withLock { $0.handledResponses } }

    func arrivals() -> AsyncStream<(notification: DeliveredNotificationDescriptor, present: @Sendable (UInt) -> Void)> {
        let (stream, continuation) = AsyncStream<(notification: DeliveredNotificationDescriptor, present: @Sendable (UInt) -> Void)>.makeStream()
        state.withLock { $0.listener = continuation }
        return stream
    }
}
