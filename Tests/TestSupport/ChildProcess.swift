/*
Abstract:
A running child process: its output, its liveness, signals, and a teardown that always ends it.
*/

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started by a test, with its stdout and stderr captured to files.
///
/// Prefer `withChildProcess(...)`, which always tears the child down. A `ChildProcess` that is
/// released while its child still runs sends it SIGKILL. Its output files are kept in ``TestLogs``,
/// so a failed test's children can be read after the run; ``diagnostics(lastLines:)`` names them.
public final class ChildProcess: Sendable {
    /// The executable that was started.
    public let executableURL: URL
    /// The arguments it was started with.
    public let arguments: [String]
    /// The child's process id.
    public let pid: pid_t
    /// The file that receives the child's standard output.
    public let standardOutputURL: URL
    /// The file that receives the child's standard error.
    public let standardErrorURL: URL

    /// The folder of the child's two output files, kept after the test.
    public let outputDirectory: URL
    private let box: StateBox

    private struct State {
        var exitStatus: ExitStatus?
        var exitWasRequested = false
    }

    /// The state the reaping thread and the test share.
    private final class StateBox: Sendable {
        let state = Mutex(State())
    }

    private init(executableURL: URL, arguments: [String], pid: pid_t, outputDirectory: URL, box: StateBox) {
        self.executableURL = executableURL
        self.arguments = arguments
        self.pid = pid
        self.outputDirectory = outputDirectory
        self.standardOutputURL = outputDirectory.appendingPathComponent("stdout.txt")
        self.standardErrorURL = outputDirectory.appendingPathComponent("stderr.txt")
        self.box = box
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
        }
    }

    /// Starts an executable.
    /// - Parameters:
    ///   - executableURL: The program to run, such as `ProductsDirectory.executable(named: "asset-server")`.
    ///   - arguments: Its arguments, without the program name.
    ///   - environment: Variables added to (or replacing those of) the test process's environment.
    ///   - currentDirectory: The child's working folder; the test process's when nil.
    /// - Returns: The running child.
    /// - Throws: `TestSupportError` when the program is missing or cannot be started.
    public static func launch(
        executableURL: URL,
        arguments: [String] = [],
        environment: [String: String] = [:],
        currentDirectory: URL? = nil
    ) throws -> ChildProcess {
        guard FileManager.default.isExecutableFile(atPath: executableURL.path) else {
            throw TestSupportError("\(executableURL.path) is not an executable file. Run `swift build` first.")
        }
        // The run's first child, like its first temporary folder, also sends the run's own logs to files.
        TestLogs.captureLogLines()
        let outputDirectory: URL
        do {
            outputDirectory = try TestLogs.childFolder(named: executableURL.lastPathComponent)
        } catch {
            throw TestSupportError("Could not create a folder for the output of \(executableURL.lastPathComponent) in "
                + "\(TestLogs.folder.path): \(error.localizedDescription)")
        }
        let box = StateBox()
        let fullEnvironment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pid = try ProcessSpawner.spawn(
            executable: executableURL.path,
            arguments: arguments,
            environment: fullEnvironment,
            currentDirectory: currentDirectory?.path,
            standardOutputPath: outputDirectory.appendingPathComponent("stdout.txt").path,
            standardErrorPath: outputDirectory.appendingPathComponent("stderr.txt").path,
            onExit: { status in box.state.withLock { $0.exitStatus = status } }
        )
        return ChildProcess(
            executableURL: executableURL, arguments: arguments, pid: pid,
            outputDirectory: outputDirectory, box: box
        )
    }

    /// A short name for messages: the executable's file name and the process id.
    public var name: String {
        "\(executableURL.lastPathComponent) (pid \(pid))"
    }

    /// Whether the child is still running.
    public var isRunning: Bool {
        box.state.withLock { $0.exitStatus == nil }
    }

    /// How the child ended, or nil while it runs.
    public var exitStatus: ExitStatus? {
        box.state.withLock { $0.exitStatus }
    }

    /// Whether the child ended without the test asking for it (through `signal`, `waitForExit` or teardown).
    public var exitedUnexpectedly: Bool {
        box.state.withLock { $0.exitStatus != nil && !$0.exitWasRequested }
    }

    /// Sends a signal to the child.
    /// - Parameter signal: The signal, such as `SIGTERM`.
    /// - Throws: `TestSupportError` when the child has already ended.
    public func signal(_ signal: Int32) throws {
        let exited = box.state.withLock { state in
            state.exitWasRequested = true
            return state.exitStatus != nil
        }
        guard !exited, kill(pid, signal) == 0 else {
            throw TestSupportError("Could not send signal \(signal) to \(name): it has already ended.")
        }
    }

    /// Waits for the child to end.
    /// - Parameter timeout: How long to wait; by default, as long as a poll.
    /// - Returns: How the child ended.
    /// - Throws: `TestSupportError` when it is still running at the deadline.
    @discardableResult
    public func waitForExit(timeout: Duration = defaultPollTimeout) async throws -> ExitStatus {
        box.state.withLock { $0.exitWasRequested = true }
        return try await poll(timeout: timeout, interval: .milliseconds(5), "\(name) to exit") {
            exitStatus
        }
    }

    /// Ends the child: SIGTERM, then SIGKILL if it is still running after `gracePeriod`.
    /// - Parameter gracePeriod: How long the child may take to shut down cleanly.
    /// - Returns: How the child ended.
    @discardableResult
    public func terminate(gracePeriod: Duration = .seconds(2)) async -> ExitStatus {
        box.state.withLock { $0.exitWasRequested = true }
        if let status = exitStatus {
            return status
        }
        kill(pid, SIGTERM)
        if let status = try? await waitForExit(timeout: gracePeriod) {
            return status
        }
        kill(pid, SIGKILL)
        // The kernel ends a SIGKILLed process promptly; the bound only guards against a wedged reaper.
        return (try? await waitForExit()) ?? .signalled(SIGKILL)
    }

    /// How many file descriptors the child has open, read from `/proc/PID/fd`; nil where that is unavailable.
    ///
    /// Compare it before and after some work to check the child releases sockets and files.
    public func openFileDescriptorCount() -> Int? {
        openFileDescriptors()?.count
    }

    /// The numbers of the file descriptors the child has open, read from `/proc/PID/fd`; nil where
    /// that is unavailable. A descriptor test reads the highest, or the lowest free one, from them.
    public func openFileDescriptors() -> Set<Int>? {
        guard isRunning, let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
        return Set(names.compactMap(Int.init))
    }

    // MARK: - Output

    /// Everything the child has written to standard output so far.
    public func standardOutput() -> String {
        (try? String(contentsOf: standardOutputURL, encoding: .utf8)) ?? ""
    }

    /// Everything the child has written to standard error so far.
    public func standardError() -> String {
        (try? String(contentsOf: standardErrorURL, encoding: .utf8)) ?? ""
    }

    /// The complete lines (ended by a newline) the child has written to standard output so far.
    public func standardOutputLines() -> [String] {
        var lines = standardOutput().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // The text after the last newline is not a complete line yet.
        return lines
    }

    /// Waits for a complete standard output line that satisfies `predicate`.
    /// - Parameters:
    ///   - timeout: How long to wait.
    ///   - predicate: Whether a line is the one awaited.
    /// - Returns: The first matching line.
    /// - Throws: `TestSupportError`, with the child's stderr, when the child ends or the deadline passes first.
    public func waitForLine(
        timeout: Duration = defaultPollTimeout,
        where predicate: (String) -> Bool
    ) async throws -> String {
        do {
            return try await poll(timeout: timeout, "a line from \(name)") { () throws -> String? in
                let exited = exitStatus
                if let line = standardOutputLines().first(where: predicate) {
                    return line
                }
                if let exited {
                    throw TestSupportError("\(name) ended with \(exited) before printing the expected line.")
                }
                return nil
            }
        } catch let error as TestSupportError {
            throw TestSupportError("\(error.description)\nstdout:\n\(standardOutput())\n\(diagnostics())")
        }
    }

    /// The end of the child's standard error, for failure messages, and where all of its output is kept.
    /// - Parameter lineCount: How many of the last lines to include.
    /// - Returns: A titled excerpt of standard error.
    public func diagnostics(lastLines lineCount: Int = 40) -> String {
        let lines = standardError().split(separator: "\n", omittingEmptySubsequences: false)
        let tail = lines.suffix(lineCount).joined(separator: "\n")
        return "--- last \(lineCount) lines of stderr of \(name), status \(exitStatus?.description ?? "running"); "
            + "all of its output is in \(outputDirectory.path) ---\n\(tail)"
    }
}
