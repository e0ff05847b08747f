/*
Abstract:
A notification's content: the immutable class and its mutable subclass, with Apple's names.
*/

import BackgroundAssetsIPC
import Foundation

/// The uneditable content of a notification.
open class UNNotificationContent: NSObject, @unchecked Sendable {
    // @unchecked: immutable once made, as Apple's class is; the mutable subclass is for building one.
    /// The notification's title.
    public internal(set) var title: String
    /// The notification's secondary description.
    public internal(set) var subtitle: String
    /// The notification's main message.
    public internal(set) var body: String
    /// The number to show on the app's icon.
    public internal(set) var badge: NSNumber?
    /// The sound to play.
    public internal(set) var sound: UNNotificationSound?
    /// Custom information for the app.
    public internal(set) var userInfo: [AnyHashable: Any]
    /// The identifier that groups related notifications.
    public internal(set) var threadIdentifier: String
    /// The identifier of the notification's category.
    public internal(set) var categoryIdentifier: String

    override init() {
        title = ""
        subtitle = ""
        body = ""
        userInfo = [:]
        threadIdentifier = ""
        categoryIdentifier = ""
    }

    /// The content as the system keeps it.
    var descriptor: NotificationContentDescriptor {
        let strings = userInfo.reduce(into: [String: Any]()) { result, pair in
            if let key = pair.key as? String, JSONSerialization.isValidJSONObject([key: pair.value]) { result[key] = pair.value }
        }
        return NotificationContentDescriptor(
            title: title, subtitle: subtitle, body: body, badge: badge?.intValue, playsSound: sound != nil,
            threadIdentifier: threadIdentifier, categoryIdentifier: categoryIdentifier,
            userInfoJSON: strings.isEmpty ? nil : try? JSONSerialization.data(withJSONObject: strings, options: [.sortedKeys]))
    }

    /// Content from the system's description.
    convenience init(_ descriptor: NotificationContentDescriptor) {
        self.init()
        title = descriptor.title
        subtitle = descriptor.subtitle
        body = descriptor.body
        badge = descriptor.badge.map { NSNumber(value: $0) }
        sound = descriptor.playsSound ? .default : nil
        threadIdentifier = descriptor.threadIdentifier
        categoryIdentifier = descriptor.categoryIdentifier
        if let json = descriptor.userInfoJSON, let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] {
            userInfo = object
        }
    }
}

/// The editable content of a notification.
///
/// ```swift
/// let content = UNMutableNotificationContent()
/// content.title = "Download complete"
/// content.body = "New levels are ready to play."
/// ```
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    // @unchecked: like Apple's, configure it on one thread, then hand it to a request, which copies it.
    public override init() { super.init() }

    open override var title: String { get { super.title } set { super.title = newValue } }
    open override var subtitle: String { get { super.subtitle } set { super.subtitle = newValue } }
    open override var body: String { get { super.body } set { super.body = newValue } }
    open override var badge: NSNumber? { get { super.badge } set { super.badge = newValue } }
    open override var sound: UNNotificationSound? { get { super.sound } set { super.sound = newValue } }
    open override var userInfo: [AnyHashable: Any] { get { super.userInfo } set { super.userInfo = newValue } }
    open override var threadIdentifier: String { get { super.threadIdentifier } set { super.threadIdentifier = newValue } }
    open override var categoryIdentifier: String { get { super.categoryIdentifier } set { super.categoryIdentifier = newValue } }
}

/// The sound played when a notification is delivered.
public final class UNNotificationSound: NSObject, Sendable {
    /// The default sound.
    public static let `default` = UNNotificationSound()
}
