/*
Abstract:
How much of each app's notifications the device keeps: the pending count and the size of each field, checked the same way by the framework and by the service.
*/

import Foundation

/// The bounds on what an app may leave with the device for later: every pending request is kept on
/// disk and in the service's memory until it is delivered, so neither its number nor its size may
/// be whatever a client sends.
public enum NotificationLimits {
    /// How many requests one app may have pending. Apple's documented number: "the system keeps the
    /// soonest-firing 64 notifications (with automatically rescheduled notifications counting as a
    /// single notification) and discards the rest"; the device does the same.
    public static let pendingPerApp = 64

    /// The largest title, in UTF-8 bytes: a line or two on a banner.
    public static let titleBytes = 1024
    /// The largest subtitle, in UTF-8 bytes.
    public static let subtitleBytes = 1024
    /// The largest body, in UTF-8 bytes: Apple's limit for a whole remote notification's payload
    /// (4 KB), which no banner shows in full anyway.
    public static let bodyBytes = 4096
    /// The largest `userInfo`, in bytes of its JSON: the same 4 KB; larger data belongs in the app's
    /// container, with a key to it here.
    public static let userInfoBytes = 4096
    /// The largest request identifier, in UTF-8 bytes; identifiers are keys, not payloads, as a
    /// download's are.
    public static let identifierBytes = DownloadDescriptor.maximumIdentifierLength
    /// The largest thread or category identifier, in UTF-8 bytes.
    public static let groupIdentifierBytes = 256
}

extension NotificationRequestDescriptor {
    /// The first limit this request is over, as a sentence naming the field, its size and the limit,
    /// or `nil`.
    ///
    /// The framework checks a request before sending it and the service checks it again on arrival,
    /// because a client is never trusted to have run the check.
    /// - Returns: A description of the problem, or `nil` when the request is within every limit.
    public func limitProblem() -> String? {
        let name = identifier.debugSummary
        if identifier.utf8.count > NotificationLimits.identifierBytes {
            return "The identifier \(name) is \(identifier.utf8.count) bytes; the device accepts at most "
                + "\(NotificationLimits.identifierBytes) bytes (NotificationLimits.identifierBytes). Use a short key."
        }
        let fields: [(name: String, size: Int, limit: Int, constant: String)] = [
            ("title", content.title.utf8.count, NotificationLimits.titleBytes, "titleBytes"),
            ("subtitle", content.subtitle.utf8.count, NotificationLimits.subtitleBytes, "subtitleBytes"),
            ("body", content.body.utf8.count, NotificationLimits.bodyBytes, "bodyBytes"),
            ("userInfo", content.userInfoJSON?.count ?? 0, NotificationLimits.userInfoBytes, "userInfoBytes"),
            ("threadIdentifier", content.threadIdentifier.utf8.count, NotificationLimits.groupIdentifierBytes, "groupIdentifierBytes"),
            ("categoryIdentifier", content.categoryIdentifier.utf8.count, NotificationLimits.groupIdentifierBytes, "groupIdentifierBytes"),
        ]
        guard let field = fields.first(where: { $0.size > $0.limit }) else { return nil }
        return "The \(field.name) of the notification request \(name) is \(field.size) bytes; the device keeps at most "
            + "\(field.limit) bytes (NotificationLimits.\(field.constant)). Shorten it, and keep larger data in the "
            + "app's container with a key to it in userInfo."
    }
}
