/*
Abstract:
The privacy of an interpolated value: whether the device log shows it or redacts it.
*/

import BackgroundAssetsIPC
import Foundation

/// Whether a value interpolated into a log message is shown or redacted, as in Apple's `OSLogPrivacy`.
///
/// `.private` and `.sensitive` values appear as `<private>` (or, with `mask: .hash`, as a hash
/// that is the same for the same value) unless the process runs with `BA_LOG_PRIVATE_DATA=1`.
/// - Note: Apple's `.auto` redacts strings and objects in the persisted log but shows numbers. Here
///   `.auto` shows every value, because the device log is a developer's own file; mark a value
///   `.private` to redact it.
public struct OSLogPrivacy: Equatable, Sendable {
    /// How a redacted value is replaced.
    public struct Mask: Equatable, Sendable {
        let isHash: Bool

        /// Replaced by a hash of the value, so equal values can still be matched across lines.
        public static let hash = Mask(isHash: true)
        /// Replaced by `<private>`.
        public static let none = Mask(isHash: false)
    }

    let isRedacted: Bool
    let mask: Mask

    /// Shown in the log.
    public static let `public` = OSLogPrivacy(isRedacted: false, mask: .none)
    /// Redacted unless private data is enabled.
    public static let `private` = OSLogPrivacy(isRedacted: true, mask: .none)
    /// Redacted unless private data is enabled; Apple also keeps it out of archived logs.
    public static let sensitive = OSLogPrivacy(isRedacted: true, mask: .none)
    /// The default: shown here (see the note on the type).
    public static let auto = OSLogPrivacy(isRedacted: false, mask: .none)

    /// Redacted unless private data is enabled, and replaced as `mask` says.
    /// - Parameter mask: How the value is replaced.
    /// - Returns: The privacy option.
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(isRedacted: true, mask: mask) }

    /// Redacted unless private data is enabled, and replaced as `mask` says.
    /// - Parameter mask: How the value is replaced.
    /// - Returns: The privacy option.
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(isRedacted: true, mask: mask) }

    /// The default privacy, with a mask for when the value is redacted.
    /// - Parameter mask: How the value is replaced if it is redacted.
    /// - Returns: The privacy option.
    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(isRedacted: false, mask: mask) }

    /// Whether private data is shown: `BA_LOG_PRIVATE_DATA=1` in the environment.
    static let revealsPrivateData = ProcessInfo.processInfo.environment["BA_LOG_PRIVATE_DATA"] == "1"

    /// The text the log shows for a value with this privacy.
    /// - Parameters:
    ///   - text: The value's description.
    ///   - revealingPrivateData: Whether private data is shown.
    /// - Returns: `text`, or its redaction.
    func render(_ text: String, revealingPrivateData: Bool = revealsPrivateData) -> String {
        guard isRedacted, !revealingPrivateData else { return text }
        guard mask.isHash else { return "<private>" }
        // FNV-1a: stable across runs and processes, unlike Hasher, so lines can be matched.
        return "<mask.hash: '\(String(FNV1a.hash(text), radix: 16))'>"
    }
}
