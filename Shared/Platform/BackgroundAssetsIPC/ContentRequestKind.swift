/*
Abstract:
Why the service asks an extension for downloads, as the wire carries it.
*/

/// The event behind a content request; the raw values are those of Apple's `BAContentRequest`.
public enum ContentRequestKind: Int, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// The app was just installed: essential downloads are permitted.
    case install = 1
    /// The app was just updated: essential downloads are permitted.
    case update = 2
    /// A periodic check for new content: essential downloads are not permitted.
    case periodic = 3

    /// Whether downloads returned for this request may be essential.
    public var permitsEssentialDownloads: Bool { self != .periodic }

    /// The name the trace and the debug tool use: `install`, `update` or `periodic`.
    public var description: String {
        switch self {
        case .install: "install"
        case .update: "update"
        case .periodic: "periodic"
        }
    }
}
