/*
Abstract:
One launched extension process: its pid, its resident memory, and how it ended.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A downloader extension process the service started (or an app it launched in the background).
///
/// The service never waits on the process itself: a thread of the process's own waits for its end
/// and calls `onExit`, so the host learns of a crash as soon as it happens, whatever the extension
/// was doing. The child is started with `posix_spawn` (``SpawnRequest``), not Foundation's `Process`,
/// whose `run()` makes a run loop on the calling thread (an `epoll`, an `eventfd` and a `timerfd`,
/// kept for the thread's life) and, with no descriptor left for them, halts the whole service
/// (SIGILL). Spawning opens nothing in the service: at its descriptor limit the child still starts
/// (it closes the service's descriptors before it opens its own), or fails with an error the
/// caller reports, and the service keeps running.
final class ExtensionProcess: Sendable {
    /// How the process ended.
    struct Exit: Sendable, Equatable, CustomStringConvertible {
        /// The process that ended.
        var processIdentifier: Int32
        /// The exit status, or the signal that ended it.
        var status: Int32
        /// Whether `status` is a signal number.
        var wasSignalled: Bool

        /// The end a `waitpid` status describes.
        init(processIdentifier: Int32, waitStatus: Int32) {
            switch ChildExit(waitStatus: waitStatus) {
            case let .exited(code): self.init(processIdentifier: processIdentifier, status: code, wasSignalled: false)
            case let .signalled(signal): self.init(processIdentifier: processIdentifier, status: signal, wasSignalled: true)
            }
        }

        init(processIdentifier: Int32, status: Int32, wasSignalled: Bool) {
            self.processIdentifier = processIdentifier
            self.status = status
            self.wasSignalled = wasSignalled
        }

        var description: String {
            wasSignalled ? "killed by signal \(status)" : "exited with status \(status)"
        }
    }

    /// The process id.
    let processIdentifier: Int32
    /// Whether the process has ended. Set before it is reaped, under this lock, so a signal sent
    /// under the same lock never reaches another process that was given the same id since.
    private let hasEnded = Mutex(false)
    private let peak = Mutex<Int64>(0)

    private init(processIdentifier: Int32) {
        self.processIdentifier = processIdentifier
    }

    /// Starts an extension executable.
    /// - Parameters:
    ///   - executable: The extension's executable.
    ///   - arguments: Its arguments; extensions take none.
    ///   - environment: Its whole environment.
    ///   - onExit: Called once, on a background thread, when the process has ended.
    /// - Returns: The running process.
    /// - Throws: ``SpawnFailure`` naming why it did not start.
    static func launch(
        executable: URL, arguments: [String] = [], environment: [String: String],
        onExit: @escaping @Sendable (Exit) -> Void
    ) throws -> ExtensionProcess {
        let path = executable.path
        // Its standard output and error are the service's (its log), as they were under `Process`.
        let request = SpawnRequest(path: path, arguments: [path] + arguments, environment: environment)
        let process = ExtensionProcess(processIdentifier: try request.spawn().get())
        process.waitForEnd(then: onExit)
        return process
    }

    /// Starts the thread that waits for the process's end, marks it ended, reaps it and calls `onExit`.
    private func waitForEnd(then onExit: @escaping @Sendable (Exit) -> Void) {
        let pid = processIdentifier
        Thread.start(named: "wait-\(pid)") { [self] in
            // Waits without reaping first: the id stays this process's until it is marked ended.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
            hasEnded.withLock { $0 = true }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            onExit(Exit(processIdentifier: pid, waitStatus: status))
        }
    }

    /// Asks the process to exit (SIGTERM), as the system ends an app it launched only for its tasks.
    func terminate() {
        signal(SIGTERM)
    }

    /// Kills the process at once (SIGKILL): what the system does to an extension over a limit.
    func kill() {
        signal(SIGKILL)
    }

    private func signal(_ number: Int32) {
        hasEnded.withLock { hasEnded in
            guard !hasEnded else { return }
            _ = Glibc.kill(processIdentifier, number)
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
