/*
Abstract:
Runs a command to completion and returns its exit status and output, such as `sha256sum FILE`.
*/

import Foundation

/// What a finished command printed and how it ended.
public struct CommandResult: Sendable, Equatable {
    /// How the command ended.
    public var status: ExitStatus
    /// Everything it wrote to standard output.
    public var standardOutput: String
    /// Everything it wrote to standard error.
    public var standardError: String
}

/// Runs a command to completion.
/// - Parameters:
///   - command: A program name looked up in `PATH` (such as `sha256sum`), or a path to one.
///   - arguments: Its arguments.
///   - environment: Variables added to the test process's environment.
///   - timeout: How long the command may run before it is killed and an error thrown.
/// - Returns: Its exit status and output.
/// - Throws: `TestSupportError` when the command is not found or does not finish in time.
public func runCommand(
    _ command: String,
    arguments: [String] = [],
    environment: [String: String] = [:],
    timeout: Duration = defaultPollTimeout
) async throws -> CommandResult {
    let process = try ChildProcess.launch(
        executableURL: try locateExecutable(command), arguments: arguments, environment: environment
    )
    do {
        let status = try await process.waitForExit(timeout: timeout)
        return CommandResult(
            status: status, standardOutput: process.standardOutput(), standardError: process.standardError()
        )
    } catch {
        await process.terminate()
        throw TestSupportError("\(command) \(arguments.joined(separator: " ")) did not finish within \(timeout).")
    }
}

/// Finds a program by name in `PATH`, or accepts a path as it is.
/// - Parameter command: A program name or a path.
/// - Returns: The program's location.
/// - Throws: `TestSupportError` when no such program is in `PATH`.
public func locateExecutable(_ command: String) throws -> URL {
    if command.contains("/") {
        return URL(fileURLWithPath: command)
    }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(command)
        if FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
    }
    throw TestSupportError("The command '\(command)' was not found in PATH (\(path)); install it first.")
}
