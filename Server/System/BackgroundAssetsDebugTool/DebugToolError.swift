/*
Abstract:
The debug tool's one error type, and the exit codes that are part of its command-line contract.
*/

/// The exit codes of `backgroundassets-debug`, documented in its usage text.
public enum DebugExitCode: Int32, Sendable {
    /// The command did what was asked.
    case success = 0
    /// The command failed; the error was printed to standard error.
    case failure = 1
    /// `install --wait`: the app was installed and is launchable, but its content could not be fetched
    /// (the manifest at `BAManifestURL` was unreachable), so nothing was downloaded for it.
    case contentUnavailable = 2
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// The command was interrupted with Ctrl-C (128 + SIGINT); a download keeps running in the service.
    case interrupted = 130
}

/// Why a debug command failed: a sentence naming the value at fault and what to do next.
public struct DebugToolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exit code the failure maps to.
    public var exitCode: DebugExitCode
    /// What went wrong and what to do.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - message: A sentence naming the value at fault and the next step.
    ///   - exitCode: The exit code it maps to; `.failure` unless the command line itself is wrong.
    public init(_ message: String, exitCode: DebugExitCode = .failure) {
        self.exitCode = exitCode
        self.message = message
    }

    /// A command-line mistake, answered with exit code 64; the dispatcher adds the pointer to the
    /// subcommand's `--help`, since it knows which subcommand was meant.
    /// - Parameter message: What is wrong with the command line.
    /// - Returns: A usage error.
    public static func usage(_ message: String) -> DebugToolError {
        DebugToolError(message, exitCode: .usage)
    }

    public var description: String { message }
}
