/*
Abstract:
The levels of log messages, with Apple's names and raw values.
*/

/// The level of a log message.
///
/// The same values as Apple's `OSLogType`. Each maps onto a level of the device log:
/// `.debug` to debug, `.info` to info, `.default` to notice, `.error` to error, `.fault` to fault.
public struct OSLogType: RawRepresentable, Hashable, Sendable {
    /// Apple's number for the level.
    public let rawValue: UInt8

    /// Creates a level from Apple's number for it.
    /// - Parameter rawValue: The number; see the static members for the known ones.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The default level: something notable that is not an error.
    public static let `default` = OSLogType(rawValue: 0x00)
    /// Information that may help troubleshoot a problem.
    public static let info = OSLogType(rawValue: 0x01)
    /// Information useful only while debugging; printed when `BA_LOG_LEVEL=debug`.
    public static let debug = OSLogType(rawValue: 0x02)
    /// An error the process recovered from.
    public static let error = OSLogType(rawValue: 0x10)
    /// A bug, or a failure the process could not recover from.
    public static let fault = OSLogType(rawValue: 0x11)
}
