/*
Abstract:
Runs a child process for the duration of a closure and always tears it down afterwards.
*/

import Foundation
import Testing

/// Starts a child process, runs `body`, and ends the child afterwards, on success and on throw.
///
/// Teardown sends SIGTERM, waits up to two seconds, then sends SIGKILL. When the child ended
/// without the test asking for it (a crash), its stderr is attached to the test and its last lines
/// are recorded with the failure. When `body` throws, the error is the test's to report; the child's
/// output stays in its files (``ChildProcess/outputDirectory``), which the helpers' errors name.
/// - Parameters:
///   - executableURL: The program to run.
///   - arguments: Its arguments.
///   - environment: Variables added to the test process's environment.
///   - currentDirectory: The child's working folder.
///   - body: The work to do while the child runs.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or `TestSupportError` when the child cannot be started.
public func withChildProcess<T>(
    executableURL: URL,
    arguments: [String] = [],
    environment: [String: String] = [:],
    currentDirectory: URL? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ChildProcess) async throws -> T
) async throws -> T {
    let process = try ChildProcess.launch(
        executableURL: executableURL, arguments: arguments,
        environment: environment, currentDirectory: currentDirectory
    )
    return try await process.runScoped(body)
}

extension ChildProcess {
    /// Runs `body` and then tears the child down, reporting a crash or a failure with the child's stderr.
    /// - Parameter body: The work to do while the child runs.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func runScoped<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ChildProcess) async throws -> T
    ) async throws -> T {
        do {
            let result = try await body(self)
            let crashed = exitedUnexpectedly
            await terminate()
            if crashed {
                attachStandardError()
                Issue.record("\(name) ended on its own during the test.\n\(diagnostics())")
            }
            return result
        } catch {
            let crashed = exitedUnexpectedly
            await terminate()
            if crashed {
                attachStandardError()
                Issue.record("\(name) ended on its own during the test.\n\(diagnostics())")
            }
            throw error
        }
    }

    /// Attaches the child's whole stderr to the current test, when there is one.
    public func attachStandardError() {
        guard Test.current != nil else { return }
        Attachment.record(standardError(), named: "\(executableURL.lastPathComponent)-\(pid)-stderr.txt")
    }
}
