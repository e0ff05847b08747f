/*
Abstract:
Authorization options, presentation options, authorization status and settings, and UNError, with Apple's values.
*/

import BackgroundAssetsIPC
import Foundation

/// The kinds of interaction the app asks to be allowed.
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}

/// How to present a notification while the app runs.
public struct UNNotificationPresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    @available(*, deprecated, message: "Use .list and .banner instead.")
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

/// Whether the app may schedule notifications.
public typealias UNAuthorizationStatus = NotificationAuthorizationStatus

/// The notification settings of the app.
public final class UNNotificationSettings: NSObject, Sendable {
    /// The app's authorization.
    public let authorizationStatus: UNAuthorizationStatus

    init(authorizationStatus: UNAuthorizationStatus) {
        self.authorizationStatus = authorizationStatus
    }
}

/// The error domain of UserNotifications.
public let UNErrorDomain = "UNErrorDomain"

/// A UserNotifications error, with Apple's codes.
public struct UNError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's codes.
    public enum Code: Int, Sendable, Hashable {
        case notificationsNotAllowed = 1
        case notificationInvalidNoDate = 1400
        case notificationInvalidNoContent = 1401
        /// The badge count is not valid (negative).
        case badgeInputInvalid = 1600
    }

    /// The error's code.
    public let code: Code
    /// What happened and what to do.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The domain, as `NSError` bridging reports it.
    public static let errorDomain = UNErrorDomain

    public var description: String { message }
}

extension UNError: CustomNSError, LocalizedError {
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var errorDescription: String? { message }
}
