/*
Abstract:
Apple's os_log functions: a format string and C arguments, or a message, to a log object at a level.
*/

/// Sends a message to the log, as Apple's `os_log(_:dso:log:type:_:)`: a constant string, or a
/// printf-style format string and the arguments it names.
///
/// ```swift
/// os_log("Downloaded %{public}@ (%ld bytes)", log: .default, type: .info, identifier, bytes)
/// ```
/// The format takes printf's conversions (`%d`, `%ld`, `%u`, `%x`, `%f`, `%s`, `%@`, `%%`, with flags,
/// widths and precisions) and Apple's decorations: `{public}`, `{private}`, `{sensitive}`, and the
/// `{bool}`, `{BOOL}` and `{errno}` value types.
/// - Parameters:
///   - message: A constant string or format string.
///   - dso: Apple's handle of the calling image; unused here.
///   - log: The log object: its subsystem and category. ``OSLog/default`` unless given.
///   - type: The level. The default level unless given.
///   - args: The values the format string's conversions take, in order.
/// - Note: A conversion whose argument is missing or of another kind (`%d` given a string) is written
///   as a placeholder that says so, instead of reading memory the arguments do not hold.
public func os_log(
    _ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, type: OSLogType = .default,
    _ args: any CVarArg...
) {
    log.write(type) { OSLogFormatString(message.description).rendering(args) }
}

/// Sends a message to the log at a level, as Apple's `os_log(_:dso:log:_:_:)`; see
/// ``os_log(_:dso:log:type:_:)``.
/// - Parameters:
///   - type: The level.
///   - dso: Apple's handle of the calling image; unused here.
///   - log: The log object. ``OSLog/default`` unless given.
///   - message: A constant string or format string.
///   - args: The values the format string's conversions take, in order.
public func os_log(
    _ type: OSLogType, dso: UnsafeRawPointer = #dsohandle, log: OSLog = .default, _ message: StaticString,
    _ args: any CVarArg...
) {
    log.write(type) { OSLogFormatString(message.description).rendering(args) }
}

/// Adds a message to the default log, as Apple's `os_log(_:)`: a string with interpolated values,
/// as ``Logger`` takes.
/// - Parameter message: The message, with `privacy:` and format options on its interpolations.
public func os_log(_ message: OSLogMessage) {
    OSLog.default.write(.default) { message.text }
}

/// Adds a message to a log object at a level, as Apple's `os_log(_:log:_:)`.
/// - Parameters:
///   - logLevel: The level. The default level unless given.
///   - logObject: The log object. ``OSLog/default`` unless given.
///   - message: The message, with `privacy:` and format options on its interpolations.
public func os_log(_ logLevel: OSLogType = .default, log logObject: OSLog = .default, _ message: OSLogMessage) {
    logObject.write(logLevel) { message.text }
}

extension OSLog {
    /// Writes a line at a level through a logger of this log's subsystem and category, unless the
    /// log or the level is off; the text is made only when it is written.
    func write(_ type: OSLogType, _ text: () -> String) {
        guard isEnabled(type: type) else { return }
        Logger(self).write(level: type, text())
    }
}
