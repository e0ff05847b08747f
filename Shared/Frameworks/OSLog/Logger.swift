/*
Abstract:
Apple's `Logger` on Linux: categorized messages to standard error and the device log.
*/

import SystemLogging

/// An object that writes messages to the log, as Apple's `os.Logger` does.
///
/// Create one per subsystem and category and call ``info(_:)``, ``error(_:)`` and the other levels
/// with a string interpolation; mark values with `privacy:` as you would on Apple platforms.
/// Messages go to standard error and to `system/log` under the device root, one line each:
/// `TIME [category] level: message`.
/// - Note: Apple's messages go to the unified logging system (Console, `log stream`); here they go to
///   the device log, where `backgroundassets-debug` and the tutorial read them. `BA_LOG_LEVEL=debug`
///   shows debug messages, which are left out by default.
public struct Logger: Sendable {
    /// The line writer underneath, shared with the system service and the asset server.
    private let sink: SystemLogging.Logger
    /// Whether every message is dropped: ``disabled``, or a logger of `OSLog.disabled`.
    private let isDisabled: Bool

    /// Creates a logger for a subsystem and category.
    /// - Parameters:
    ///   - subsystem: The subsystem, usually the bundle identifier.
    ///   - category: The category, shown in brackets on every line.
    public init(subsystem: String, category: String) {
        sink = SystemLogging.Logger(subsystem: subsystem, category: category)
        isDisabled = false
    }

    /// Creates a logger with no subsystem or category.
    public init() {
        self.init(subsystem: "", category: "default")
    }

    /// Creates a logger that writes to a log object's subsystem and category.
    /// - Parameter logObj: The log; ``OSLog/disabled`` makes a logger that writes nothing.
    public init(_ logObj: OSLog) {
        sink = SystemLogging.Logger(subsystem: logObj.subsystem, category: logObj.category)
        isDisabled = logObj.isDisabled
    }

    /// A logger that writes nothing, to turn off the messages of one logger variable.
    public static var disabled: Logger { Logger(OSLog.disabled) }

    /// Whether messages of `type` are written.
    /// - Parameter type: The level.
    /// - Returns: `false` for a disabled logger, and for `.debug` unless the process runs with
    ///   `BA_LOG_LEVEL=debug`; `true` otherwise.
    public func isEnabled(type: OSLogType) -> Bool {
        !isDisabled && SystemLogging.Logger.isEnabled(level: Self.deviceLogLevel(for: type))
    }

    /// The subsystem the logger was created with.
    package var subsystem: String { sink.subsystem }
    /// The category the logger was created with.
    package var category: String { sink.category }

    /// Logs a message at the default level.
    public func log(_ message: OSLogMessage) { log(level: .default, message) }

    /// Logs a message at a level.
    /// - Parameters:
    ///   - level: The level.
    ///   - message: The message.
    public func log(level: OSLogType, _ message: OSLogMessage) {
        write(level: level, message.text)
    }

    /// Writes text that is already a message's: what `os_log` and the signposts write.
    func write(level: OSLogType, _ text: @autoclosure () -> String) {
        guard !isDisabled else { return }
        sink.log(level: Self.deviceLogLevel(for: level), text())
    }

    /// Logs a message useful only while tracing code, at the debug level.
    public func trace(_ message: OSLogMessage) { log(level: .debug, message) }
    /// Logs a message useful only while debugging.
    public func debug(_ message: OSLogMessage) { log(level: .debug, message) }
    /// Logs information that may help troubleshoot a problem.
    public func info(_ message: OSLogMessage) { log(level: .info, message) }
    /// Logs something notable that is not an error, at the default level.
    public func notice(_ message: OSLogMessage) { log(level: .default, message) }
    /// Logs a warning, at the error level.
    public func warning(_ message: OSLogMessage) { log(level: .error, message) }
    /// Logs an error the process recovered from.
    public func error(_ message: OSLogMessage) { log(level: .error, message) }
    /// Logs a critical failure, at the fault level.
    public func critical(_ message: OSLogMessage) { log(level: .fault, message) }
    /// Logs a bug or a failure the process could not recover from.
    public func fault(_ message: OSLogMessage) { log(level: .fault, message) }

    /// Points standard error at the device log, for a process whose terminal shows something else.
    /// - Returns: Whether standard error now goes to the device log.
    @discardableResult
    package static func redirectStandardErrorToDeviceLog() -> Bool {
        SystemLogging.Logger.redirectStandardErrorToDeviceLog()
    }

    /// The device log's level for an Apple level; unknown levels count as the default.
    static func deviceLogLevel(for type: OSLogType) -> SystemLogging.Logger.Level {
        switch type {
        case .debug: .debug
        case .info: .info
        case .error: .error
        case .fault: .fault
        default: .notice
        }
    }
}
