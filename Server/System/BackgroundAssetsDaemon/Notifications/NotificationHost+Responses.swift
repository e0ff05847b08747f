/*
Abstract:
A person's answer to a delivered notification: checked against the notification's category, sent to the app's delegate, kept until the delegate is done.
*/

import BackgroundAssetsIPC
import Foundation

extension NotificationHost {
    /// A person answers one of the app's delivered notifications (`backgroundassets-debug notifications --respond`).
    /// - Parameters:
    ///   - identifier: The delivered notification's request identifier; the latest delivery of it is answered.
    ///   - action: One of the category's actions, or Apple's default or dismiss action.
    ///   - text: What the person typed, for a text-input action.
    /// - Returns: Whether a delegate of the app has the answer now; if not, the app must be launched for it.
    /// - Throws: ``Refusal`` naming the notification or action that is not there, and what is.
    func respond(app: String, identifier: String, action: String, text: String?,
                 isolation: isolated (any Actor)? = #isolation) async throws -> Bool {
        guard let delivered = try await store.delivered(app: app).last(where: { $0.notification.request.identifier == identifier }) else {
            throw Refusal(code: 1, message: "\(app) has no delivered notification \(identifier); list them with "
                + "backgroundassets-debug notifications -b \(app).")
        }
        let notification = delivered.notification
        let categoryIdentifier = notification.request.content.categoryIdentifier
        let category = try await store.categories(of: app).first { $0.identifier == categoryIdentifier }
        try Self.check(action: action, text: text, category: category, identifier: identifier)
        let id = nextResponseID
        nextResponseID += 1
        let chosen = category?.actions.first { $0.identifier == action }
        let typed = chosen?.textInputButtonTitle != nil ? (text ?? "") : nil
        responses[id] = (app, NotificationResponseDescriptor(notification: notification, actionIdentifier: action, userText: typed), nil)
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: "respondToNotification", app: app,
                           detail: "\(identifier): \(action)"))
        return sendWaitingResponses(of: app)
    }

    /// Refuses an action the notification does not offer, or text for an action without a text field.
    private static func check(action: String, text: String?, category: NotificationCategoryDescriptor?, identifier: String) throws {
        let dismisses = (category?.options ?? 0) & 1 != 0
        let offered = [NotificationResponseDescriptor.defaultActionIdentifier]
            + (dismisses ? [NotificationResponseDescriptor.dismissActionIdentifier] : []) + (category?.actions.map(\.identifier) ?? [])
        guard offered.contains(action) else {
            throw Refusal(code: 1, message: "The notification \(identifier) offers no action \(action); choose one of "
                + offered.joined(separator: ", ") + (dismisses ? "" : " (a dismissal reaches the app only in a category with customDismissAction)") + ".")
        }
        if text != nil, category?.actions.first(where: { $0.identifier == action })?.textInputButtonTitle == nil {
            throw Refusal(code: 1, message: "The action \(action) of the notification \(identifier) takes no text; --text goes with a UNTextInputNotificationAction.")
        }
    }

    /// Sends the app's answers no delegate has to a delegate of the app, if one listens.
    /// - Returns: Whether a delegate listens.
    @discardableResult
    func sendWaitingResponses(of app: String) -> Bool {
        guard let (connectionID, presenter) = presenters.first(where: { $0.value.app == app }) else { return false }
        for (id, waiting) in responses.sorted(by: { $0.key < $1.key }) where waiting.app == app && waiting.sentTo == nil {
            responses[id]?.sentTo = connectionID
            presenter.connection.send(.event(.notificationResponse(responseID: id, response: waiting.response)))
        }
        return true
    }

    /// The delegate finished handling an answer.
    /// - Returns: The app, whose background launch may end now.
    func responseHandled(_ id: UInt64) -> String? {
        guard let handled = responses.removeValue(forKey: id) else { return nil }
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "didReceiveResponse", app: handled.app,
                           detail: "\(handled.response.notification.request.identifier): \(handled.response.actionIdentifier)"))
        return handled.app
    }

    /// Whether the app's background launch must go on: an answer waits for its delegate.
    func keepsBackgroundLaunch(of app: String) -> Bool {
        responses.values.contains { $0.app == app }
    }
}
