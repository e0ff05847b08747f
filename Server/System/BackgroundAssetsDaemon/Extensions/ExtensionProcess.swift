/*
Abstract:
One launched extension process: its pid, its resident memory, and how it ended.
*/

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A downloader extension process the service started.
///
/// The service never waits on the process itself: Foundation reaps it and calls `onExit`, so the
/// host learns of a crash as soon as it happens, whatever the extension was doing.
final class ExtensionProcess: Sendable {
    /// How the process ended.
    struct Exit: Sendable, Equatable, CustomStringConvertible {
        /// The process that ended.
        var processIdentifier: Int32
        /// The exit status, or the signal that ended it.
        var status: Int32
        /// Whether `status` is a signal number.
        var wasSignalled: Bool

        var description: String {
            wasSignalled ? "killed by signal \(status)" : "exited with status \(status)"
        }
    }

    /// The process id.
    let processIdentifier: Int32
    private let process: Mutex<Process?>
    private let peak = Mutex<Int64>(0)

    private init(process: Process) {
        processIdentifier = process.processIdentifier
        self.process = Mutex(process)
    }

    /// Starts an extension executable.
    /// - Parameters:
    ///   - executable: The extension's executable.
    ///   - arguments: Its arguments; extensions take none.
    ///   - environment: Its whole environment.
    ///   - onExit: Called once, on a background thread, when the process has ended.
    /// - Returns: The running process.
    /// - Throws: The error that prevented starting it.
    static func launch(
        executable: URL, arguments: [String] = [], environment: [String: String],
        onExit: @escaping @Sendable (Exit) -> Void
    ) throws -> ExtensionProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { ended in
            onExit(Exit(processIdentifier: ended.processIdentifier, status: ended.terminationStatus, wasSignalled: ended.terminationReason == .uncaughtSignal))
        }
        try process.run()
        return ExtensionProcess(process: process)
    }

    /// Kills the process at once (SIGKILL): what the system does to an extension over a limit.
    /// Asks the process to exit (SIGTERM), as the system ends an app it launched only for its tasks.
    func terminate() {
        process.withLock { process in
            guard let process, process.isRunning else { return }
            _ = Glibc.kill(process.processIdentifier, SIGTERM)
        }
    }

    func kill() {
        process.withLock { process in
            guard let process, process.isRunning else { return }
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
        }
    }

    /// The process's resident memory in bytes, or `nil` once it has ended; also kept as the peak.
    var residentBytes: Int64? {
        guard let bytes = Self.residentBytes(of: processIdentifier) else { return nil }
        peak.withLock { $0 = max($0, bytes) }
        return bytes
    }

    /// The highest resident memory seen by ``residentBytes``, for the diagnostics of the process's end.
    var peakResidentBytes: Int64 { peak.withLock { $0 } }

    /// Reads a process's resident set size from `/proc/PID/statm` (its second field, in pages).
    /// The most resident memory the process has used so far (`VmHWM`), or `nil` once it has ended.
    var highWaterResidentBytes: Int64? {
        guard let text = try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int64(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    static func residentBytes(of pid: Int32) -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int64(fields[1]) else { return nil }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
