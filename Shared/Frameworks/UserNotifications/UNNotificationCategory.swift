/*
Abstract:
Notification categories and their actions, with Apple's names and option values.
*/

import BackgroundAssetsIPC
import Foundation

/// How an action behaves when a person chooses it.
public struct UNNotificationActionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

/// How a category's notifications behave.
public struct UNNotificationCategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// A task a person can perform in response to a notification: a button beside it.
open class UNNotificationAction: NSObject, @unchecked Sendable {
    // @unchecked: immutable.
    /// The identifier the response carries when a person chooses the action.
    public let identifier: String
    /// The button's title.
    public let title: String
    /// How the action behaves.
    public let options: UNNotificationActionOptions

    /// Creates an action.
    public init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.identifier = identifier
        self.title = title
        self.options = options
    }

    var descriptor: NotificationActionDescriptor {
        NotificationActionDescriptor(identifier: identifier, title: title, options: options.rawValue)
    }

    static func make(_ descriptor: NotificationActionDescriptor) -> UNNotificationAction {
        let options = UNNotificationActionOptions(rawValue: descriptor.options)
        guard let button = descriptor.textInputButtonTitle else {
            return UNNotificationAction(identifier: descriptor.identifier, title: descriptor.title, options: options)
        }
        return UNTextInputNotificationAction(identifier: descriptor.identifier, title: descriptor.title, options: options,
                                             textInputButtonTitle: button, textInputPlaceholder: descriptor.textInputPlaceholder ?? "")
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationAction)?.descriptor == descriptor
    }

    open override var hash: Int { descriptor.hashValue }
}

/// An action that lets a person type a reply.
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    /// The title of the button that sends the text.
    public let textInputButtonTitle: String
    /// The placeholder of the text field.
    public let textInputPlaceholder: String

    /// Creates a text-input action.
    public init(identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String,
                textInputPlaceholder: String) {
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
        super.init(identifier: identifier, title: title, options: options)
    }

    override var descriptor: NotificationActionDescriptor {
        NotificationActionDescriptor(identifier: identifier, title: title, options: options.rawValue,
                                     textInputButtonTitle: textInputButtonTitle, textInputPlaceholder: textInputPlaceholder)
    }
}

/// A type of notification the app supports, with the actions it shows; content names it in
/// `categoryIdentifier`.
open class UNNotificationCategory: NSObject, @unchecked Sendable {
    // @unchecked: immutable.
    /// The identifier content names in `categoryIdentifier`.
    public let identifier: String
    /// The actions, in the order they are shown.
    public let actions: [UNNotificationAction]
    /// The intents the category's notifications relate to.
    public let intentIdentifiers: [String]
    /// How the category's notifications behave.
    public let options: UNNotificationCategoryOptions
    /// The text shown in place of a hidden preview's body.
    public let hiddenPreviewsBodyPlaceholder: String

    /// Creates a category.
    public init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                options: UNNotificationCategoryOptions = []) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
        hiddenPreviewsBodyPlaceholder = ""
    }

    /// Creates a category with a placeholder for hidden previews.
    public init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    }

    var descriptor: NotificationCategoryDescriptor {
        NotificationCategoryDescriptor(
            identifier: identifier, actions: actions.map(\.descriptor), intentIdentifiers: intentIdentifiers, options: options.rawValue,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder.isEmpty ? nil : hiddenPreviewsBodyPlaceholder)
    }

    convenience init(_ descriptor: NotificationCategoryDescriptor) {
        self.init(identifier: descriptor.identifier, actions: descriptor.actions.map(UNNotificationAction.make),
                  intentIdentifiers: descriptor.intentIdentifiers, hiddenPreviewsBodyPlaceholder: descriptor.hiddenPreviewsBodyPlaceholder ?? "",
                  options: UNNotificationCategoryOptions(rawValue: descriptor.options))
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationCategory)?.descriptor == descriptor
    }

    open override var hash: Int { descriptor.hashValue }
}
