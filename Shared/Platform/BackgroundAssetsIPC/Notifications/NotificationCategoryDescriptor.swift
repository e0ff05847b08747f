/*
Abstract:
A notification category and its actions, as values both the framework and the service read.
*/

import Foundation

/// A button of a notification: `UNNotificationAction`, or `UNTextInputNotificationAction` when it
/// has the text fields.
public struct NotificationActionDescriptor: Codable, Sendable, Hashable {
    public var identifier: String
    public var title: String
    /// `UNNotificationActionOptions`' raw value.
    public var options: UInt
    /// The text-input action's button title; `nil` for a plain action.
    public var textInputButtonTitle: String?
    /// The text-input action's placeholder; `nil` for a plain action.
    public var textInputPlaceholder: String?

    /// Creates an action.
    public init(identifier: String, title: String, options: UInt, textInputButtonTitle: String? = nil,
                textInputPlaceholder: String? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
    }
}

/// A kind of notification the app declares (`UNNotificationCategory`): its identifier, which content
/// names in `categoryIdentifier`, and the actions a person can choose.
public struct NotificationCategoryDescriptor: Codable, Sendable, Hashable {
    public var identifier: String
    public var actions: [NotificationActionDescriptor]
    public var intentIdentifiers: [String]
    /// `UNNotificationCategoryOptions`' raw value.
    public var options: UInt
    public var hiddenPreviewsBodyPlaceholder: String?

    /// Creates a category.
    public init(identifier: String, actions: [NotificationActionDescriptor], intentIdentifiers: [String], options: UInt,
                hiddenPreviewsBodyPlaceholder: String? = nil) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    }

    /// The most categories an app keeps, and the most actions each shows, here as the limits of
    /// what the device stores for it.
    public static let maximumCount = 64
    public static let maximumActions = 10
    /// The most bytes of text any identifier, title or placeholder may have.
    public static let maximumTextBytes = 1_024

    /// Why a set of categories cannot be kept, naming the category and field, or `nil`.
    public static func problem(in categories: [NotificationCategoryDescriptor]) -> String? {
        if categories.count > maximumCount {
            return "An app may declare at most \(maximumCount) notification categories; setNotificationCategories got \(categories.count)."
        }
        for category in categories {
            if category.identifier.isEmpty { return "A UNNotificationCategory needs an identifier." }
            if category.actions.count > maximumActions {
                return "The notification category \(category.identifier) has \(category.actions.count) actions; keep at most \(maximumActions)."
            }
            let texts = [category.identifier, category.hiddenPreviewsBodyPlaceholder ?? ""] + category.intentIdentifiers
                + category.actions.flatMap { [$0.identifier, $0.title, $0.textInputButtonTitle ?? "", $0.textInputPlaceholder ?? ""] }
            if let long = texts.first(where: { $0.utf8.count > maximumTextBytes }) {
                return "The notification category \(category.identifier) has a text of \(long.utf8.count) bytes; keep each under \(maximumTextBytes)."
            }
            if category.actions.contains(where: { $0.identifier.isEmpty }) {
                return "An action of the notification category \(category.identifier) has no identifier."
            }
        }
        return nil
    }
}
