/*
Abstract:
A mistake on the command line, and the one way every executable reports it: EX_USAGE with the usage.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mistake on the command line: a sentence naming the argument at fault.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// Creates an error.
    /// - Parameter message: A sentence naming the argument at fault.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// How every executable of the package ends on `--help` and on a mistake on its command line.
public enum CommandLineExit {
    /// The exit code of a mistake on the command line (EX_USAGE from sysexits.h).
    public static let usageExitCode: Int32 = 64

    /// Prints the usage to standard output and exits 0.
    /// - Parameter usage: The command's usage text.
    public static func help(_ usage: String) -> Never {
        put(usage + "\n", to: STDOUT_FILENO)
        exit(0)
    }

    /// Prints `command: message`, then the usage, to standard error, and exits with ``usageExitCode``.
    /// - Parameters:
    ///   - message: What is wrong, naming the argument.
    ///   - command: The command's name.
    ///   - usage: The command's usage text.
    public static func usageError(_ message: String, command: String, usage: String) -> Never {
        put("\(command): \(message)\n\n\(usage)\n", to: STDERR_FILENO)
        exit(usageExitCode)
    }

    private static func put(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
