/*
Abstract:
A small stand-in for the unified logging system's `Logger`: categorized lines to stderr and the device log.
*/

import DevicePlatform
import Foundation
import Synchronization

/// Writes categorized log lines to standard error and, for processes of the device, to the device log.
///
/// Usage mirrors `os.Logger`: create one per category and call ``info(_:)``, ``error(_:)`` and friends.
/// - Note: Apple's `Logger` takes `OSLogMessage` interpolations with privacy options; this one
///   takes plain strings.
public struct Logger: Sendable {
    /// The severity of a log line, in increasing order.
    public enum Level: String, Sendable, Comparable, CaseIterable {
        case debug, info, notice, error, fault

        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.severity < rhs.severity
        }

        // Compared for every line, logged or not, so without building `allCases`.
        private var severity: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .notice: 2
            case .error: 3
            case .fault: 4
            }
        }
    }

    /// The subsystem, usually the bundle identifier of the process.
    public let subsystem: String
    /// The category shown in brackets on every line, for example `app`, `ext`, `daemon`, `server`.
    public let category: String
    private let writesToDeviceLog: Bool

    /// Creates a logger.
    /// - Parameters:
    ///   - subsystem: The subsystem, usually the bundle identifier.
    ///   - category: The category printed with each line.
    ///   - writesToDeviceLog: Whether lines are also appended to `system/log` under the device root;
    ///     processes that are not part of the device (the asset server) pass `false`.
    public init(subsystem: String, category: String, writesToDeviceLog: Bool = true) {
        self.subsystem = subsystem
        self.category = category
        self.writesToDeviceLog = writesToDeviceLog
    }

    /// Logs a message useful only while debugging; printed when `BA_LOG_LEVEL=debug`.
    public func debug(_ message: @autoclosure () -> String) { log(level: .debug, message()) }
    /// Logs an informational message.
    public func info(_ message: @autoclosure () -> String) { log(level: .info, message()) }
    /// Logs a message about something notable that is not an error.
    public func notice(_ message: @autoclosure () -> String) { log(level: .notice, message()) }
    /// Logs an error the process recovered from.
    public func error(_ message: @autoclosure () -> String) { log(level: .error, message()) }
    /// Logs a bug or a failure the process could not recover from.
    public func fault(_ message: @autoclosure () -> String) { log(level: .fault, message()) }

    /// Whether lines of this level are written: debug lines only with `BA_LOG_LEVEL=debug`.
    /// - Parameter level: The level.
    /// - Returns: `true` when ``log(level:_:)`` writes a line of that level.
    public static func isEnabled(level: Level) -> Bool {
        level >= LogSink.shared.minimumLevel
    }

    /// Logs a message at the given level.
    public func log(level: Level, _ message: @autoclosure () -> String) {
        guard level >= LogSink.shared.minimumLevel else { return }
        // Tokens in URL queries never reach the log: a log is read by people debugging, not the app.
        let text = SecretRedaction.redacting(text: message())
        let line = "\(Self.timestamp()) [\(category)] \(level == .info ? "" : "\(level.rawValue): ")\(text)\n"
        LogSink.shared.append(line, toDeviceLog: writesToDeviceLog)
    }

    /// Points this process's standard error at the device log, for a process that runs detached
    /// from any terminal (the service started on demand): its log lines, and any crash report the
    /// runtime prints, land in `system/log`, each once.
    /// - Returns: Whether standard error now goes to the device log.
    @discardableResult
    public static func redirectStandardErrorToDeviceLog() -> Bool {
        LogSink.shared.redirectStandardErrorToDeviceLog()
    }

    /// Writes the lines this process would print on standard error to a file instead; the device
    /// log still gets its copy. Tests call it so that the service and the server they run in their
    /// own process keep their lines out of the test results, which share standard error.
    /// - Parameter path: The file, appended to (created 0600 when missing).
    /// - Returns: Whether the file could be opened.
    @discardableResult
    public static func writeStandardErrorLines(toFileAt path: String) -> Bool {
        LogSink.shared.writeStandardErrorLines(toFileAt: path)
    }

    private static func timestamp() -> String {
        ISO8601Timestamp.string(for: .now)
    }
}

/// The process-wide destination of log lines: standard error and the device log.
final class LogSink: Sendable {
    static let shared = LogSink()

    let minimumLevel: Logger.Level
    private let deviceLog = Mutex<Int32?>(nil)
    private let standardErrorIsDeviceLog = Mutex(false)
    /// Whether this process already said that a link stands where the device log belongs.
    private let reportedLogLink = Mutex(false)
    /// Where the lines meant for standard error go instead, when a test asked.
    private let standardErrorFile = Mutex<Int32?>(nil)

    private init() {
        let environment = ProcessInfo.processInfo.environment
        minimumLevel = environment["BA_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        // A process the service launches (the extension) inherits the service's stderr, which is
        // already the device log: writing both would log every line twice.
        standardErrorIsDeviceLog.withLock { $0 = Self.standardErrorIsDeviceLogFile() }
    }

    private static func standardErrorIsDeviceLogFile() -> Bool {
        var standardError = stat()
        var logFile = stat()
        guard fstat(STDERR_FILENO, &standardError) == 0,
            stat(DevicePaths.current().logFile.path, &logFile) == 0
        else { return false }
        return standardError.st_dev == logFile.st_dev && standardError.st_ino == logFile.st_ino
    }

    func append(_ line: String, toDeviceLog: Bool) {
        let bytes = Array(line.utf8)
        // One write(2) per line keeps lines from different threads and processes whole.
        let standardError = standardErrorFile.withLock { $0 } ?? STDERR_FILENO
        _ = bytes.withUnsafeBytes { write(standardError, $0.baseAddress, $0.count) }
        guard toDeviceLog, !standardErrorIsDeviceLog.withLock({ $0 }) else { return }
        deviceLog.withLock { descriptor in
            if descriptor == nil { descriptor = openDeviceLog() }
            guard let descriptor, descriptor >= 0 else { return }
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    func writeStandardErrorLines(toFileAt path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        // A second call puts the new file in the first one's place with dup2(2), which is atomic:
        // `append` reads the number outside the lock, so closing it would leave a line in flight
        // to be written into whatever file or socket took the number next.
        return standardErrorFile.withLock { current in
            guard let current else {
                current = descriptor
                return true
            }
            defer { close(descriptor) }
            return dup2(descriptor, current) >= 0
        }
    }

    func redirectStandardErrorToDeviceLog() -> Bool {
        let descriptor = openDeviceLog()
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard dup2(descriptor, STDERR_FILENO) >= 0 else { return false }
        standardErrorIsDeviceLog.withLock { $0 = true }
        return true
    }

    /// Opens the device log for appending, or returns -1 when the device root has no `system/` yet
    /// (a process never creates the device root just to log) or is not this user's own: a line that
    /// says another user's device root is refused must not be written into it.
    ///
    /// A symbolic link where the log belongs is never followed (a service running as root would
    /// append to, or create, the file it names); this process says so once on standard error and
    /// logs there only.
    private func openDeviceLog() -> Int32 {
        let paths = DevicePaths.current()
        guard (try? DeviceRootOwnership.checkRoot(paths)) != nil, (try? DeviceRootOwnership.checkFolders(paths)) != nil else {
            return -1
        }
        do {
            return try LinkRefusingFile.open(paths.logFile, flags: O_WRONLY | O_APPEND | O_CREAT)
        } catch where error.isLink {
            guard !reportedLogLink.withLock({ reported in defer { reported = true }; return reported }) else { return -1 }
            let line = "\(ISO8601Timestamp.string(for: .now)) [log] error: The device log is not written: \(error)\n"
            let standardError = standardErrorFile.withLock { $0 } ?? STDERR_FILENO
            _ = Array(line.utf8).withUnsafeBytes { write(standardError, $0.baseAddress, $0.count) }
            return -1
        } catch {
            return -1
        }
    }
}
