/*
Abstract:
Apple's os_signpost functions, the signposts of code older than OSSignposter: a type, a log, a name and an ID.
*/

/// The type of a signpost written with `os_signpost`, with Apple's raw values.
public struct OSSignpostType: RawRepresentable, Hashable, Sendable {
    /// Apple's number for the type.
    public let rawValue: UInt8

    /// Creates a type from Apple's number for it; an unknown number is taken as an event.
    /// - Parameter rawValue: The number.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A point of interest in time.
    public static let event = OSSignpostType(rawValue: 0)
    /// The beginning of an interval.
    public static let begin = OSSignpostType(rawValue: 1)
    /// The end of an interval.
    public static let end = OSSignpostType(rawValue: 2)
}

/// Writes a signpost, as Apple's `os_signpost(_:dso:log:name:signpostID:)`: the begin or end of an
/// interval, or an event, paired by name and ID.
///
/// ```swift
/// os_signpost(.begin, log: refreshLog, name: "Refresh Panel")
/// os_signpost(.end, log: refreshLog, name: "Refresh Panel")
/// ```
/// The signpost goes where ``OSSignposter``'s go: the device log and the device's trace.
/// - Parameters:
///   - type: Begin, end or event.
///   - dso: Apple's handle of the calling image; unused here.
///   - log: The log object whose subsystem and category the signpost has.
///   - name: The signpost's name; an end gives its begin's.
///   - signpostID: The identifier that tells apart overlapping intervals of the same name.
/// - Note: Without an interval state an end cannot say how long its interval took; the trace's
///   timeline still pairs it with its begin.
public func os_signpost(
    _ type: OSSignpostType, dso: UnsafeRawPointer = #dsohandle, log: OSLog, name: StaticString,
    signpostID: OSSignpostID = .exclusive
) {
    OSSignposter(logHandle: log).emit(type, name, id: signpostID, message: nil)
}

/// Writes a signpost with a message made from a format string, as Apple's
/// `os_signpost(_:dso:log:name:signpostID:_:_:)`; the format takes what ``os_log(_:dso:log:type:_:)``'s does.
/// - Parameters:
///   - type: Begin, end or event.
///   - dso: Apple's handle of the calling image; unused here.
///   - log: The log object.
///   - name: The signpost's name.
///   - signpostID: The identifier.
///   - format: A constant string or format string.
///   - arguments: The values the format's conversions take.
public func os_signpost(
    _ type: OSSignpostType, dso: UnsafeRawPointer = #dsohandle, log: OSLog, name: StaticString,
    signpostID: OSSignpostID = .exclusive, _ format: StaticString, _ arguments: any CVarArg...
) {
    guard log.signpostsEnabled else { return }
    let message = OSLogFormatString(format.description).rendering(arguments)
    OSSignposter(logHandle: log).emit(type, name, id: signpostID, message: message)
}

extension OSLog {
    /// Whether signposts of this log are written: `false` only for ``OSLog/disabled``.
    public var signpostsEnabled: Bool { !isDisabled }
}
