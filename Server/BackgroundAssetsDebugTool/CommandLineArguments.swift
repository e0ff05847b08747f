/*
Abstract:
A tiny parser for one subcommand's arguments: flags, options with values, and positionals.
*/

/// The arguments of one subcommand, consumed as the subcommand asks for them.
///
/// Each subcommand declares what it takes by asking for it, then calls ``finish()`` so that
/// anything it did not ask for is reported instead of silently ignored. `--name value` and
/// `--name=value` are both accepted.
public struct CommandLineArguments: Sendable {
    private var remaining: [String]
    private let subcommand: String

    /// Wraps the arguments that follow a subcommand's name.
    /// - Parameters:
    ///   - arguments: The arguments after the subcommand's name.
    ///   - subcommand: The subcommand's name, for error messages.
    public init(_ arguments: [String], subcommand: String) {
        remaining = arguments
        self.subcommand = subcommand
    }

    /// Removes a flag and says whether it was given.
    /// - Parameter name: The flag, such as `--json`.
    /// - Returns: Whether the flag was present.
    public mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes an option and returns its value.
    /// - Parameter name: The option, such as `--output`.
    /// - Returns: Its value, or `nil` when the option was not given.
    /// - Throws: A usage error when the option has no value.
    public mutating func option(_ name: String) throws(DebugToolError) -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            return String(remaining.remove(at: index).dropFirst(name.count + 1))
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count, !remaining[index + 1].hasPrefix("--") else {
            throw .usage("The option \(name) of \(subcommand) needs a value.")
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    /// Removes the next positional argument.
    /// - Parameter name: What the argument is, such as `URL`, for the error message.
    /// - Returns: The argument.
    /// - Throws: A usage error when there is none.
    public mutating func positional(_ name: String) throws(DebugToolError) -> String {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("--") }) else {
            throw .usage("\(subcommand) needs \(name).")
        }
        return remaining.remove(at: index)
    }

    /// Checks that every argument was used.
    /// - Throws: A usage error naming the first argument no one asked for.
    public func finish() throws(DebugToolError) {
        if let extra = remaining.first {
            throw .usage("\(subcommand) does not take \(extra.debugDescription).")
        }
    }
}
