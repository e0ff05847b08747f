/*
Abstract:
Apple's log object: a subsystem and category that a Logger writes under, or the log that writes nothing.
*/

import Foundation
import SystemLogging

/// A log that messages are written to, as Apple's `OSLog` (`os_log_t`) is; give it to
/// ``Logger/init(_:)``.
///
/// ```swift
/// let log = OSLog(subsystem: "com.example.MyApp", category: "network")
/// let logger = Logger(log)
/// ```
/// Give it to ``os_log(_:dso:log:type:_:)`` and the other `os_log` functions, or to
/// ``OSSignposter/init(logHandle:)``.
public final class OSLog: NSObject, Sendable {
    /// The subsystem, usually the bundle identifier.
    let subsystem: String
    /// The category, shown in brackets on every line.
    let category: String
    /// Whether messages are dropped: ``disabled``.
    let isDisabled: Bool

    private init(subsystem: String, category: String, isDisabled: Bool) {
        self.subsystem = subsystem
        self.category = category
        self.isDisabled = isDisabled
    }

    /// Creates a log for a subsystem and category.
    /// - Parameters:
    ///   - subsystem: The subsystem, usually the bundle identifier.
    ///   - category: The category, shown in brackets on every line.
    public convenience init(subsystem: String, category: String) {
        self.init(subsystem: subsystem, category: category, isDisabled: false)
    }

    /// The shared default log.
    public static let `default` = OSLog(subsystem: "", category: "default", isDisabled: false)

    /// The shared log that writes nothing.
    public static let disabled = OSLog(subsystem: "", category: "disabled", isDisabled: true)

    /// Whether messages of `type` are written to this log.
    /// - Parameter type: The level.
    /// - Returns: `false` for ``disabled``, and for `.debug` unless the process runs with
    ///   `BA_LOG_LEVEL=debug`; `true` otherwise.
    public func isEnabled(type: OSLogType) -> Bool {
        !isDisabled && SystemLogging.Logger.isEnabled(level: Logger.deviceLogLevel(for: type))
    }
}
