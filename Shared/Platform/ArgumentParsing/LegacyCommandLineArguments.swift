/*
Abstract:
The parser every executable used before signatures: arguments consumed as the command asks for them, by name. Each executable moves to CommandSignature, and this file goes with the last.
*/

/// The arguments of one command, consumed as the command asks for them.
///
/// Each command declares what it takes by asking for it, then calls ``finish()`` so that anything
/// it did not ask for is reported instead of silently ignored. `--name value` and `--name=value` are
/// both accepted. Every executable of the package parses its command line with it, and says what is
/// wrong the same way: a sentence naming the argument, in the error type the command chooses.
public struct LegacyCommandLineArguments<Failure: Error>: Sendable {
    private var remaining: [String]
    /// The command's name, for error messages: `asset-server`, or a subcommand such as `install`.
    public let command: String
    private let makeError: @Sendable (String) -> Failure

    /// Wraps the arguments that follow a command's name.
    /// - Parameters:
    ///   - arguments: The arguments after the command's name.
    ///   - command: The command's name, for error messages.
    ///   - makeError: Turns a sentence about the command line into the command's usage error.
    public init(_ arguments: [String], command: String, makeError: @escaping @Sendable (String) -> Failure) {
        remaining = arguments
        self.command = command
        self.makeError = makeError
    }

    /// Whether any argument is left.
    public var isEmpty: Bool { remaining.isEmpty }

    /// Removes a flag and says whether it was given, in any of its spellings.
    /// - Parameter names: The flag and its aliases, such as `--help` and `-h`.
    /// - Returns: Whether the flag was present.
    public mutating func flag(_ names: String...) -> Bool {
        var found = false
        remaining.removeAll { argument in
            guard names.contains(argument) else { return false }
            found = true
            return true
        }
        return found
    }

    /// Removes an option and returns its value.
    /// - Parameter name: The option, such as `--output`.
    /// - Returns: Its value, or `nil` when the option was not given.
    /// - Throws: A usage error when the option has no value.
    public mutating func option(_ name: String) throws(Failure) -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            return String(remaining.remove(at: index).dropFirst(name.count + 1))
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count, !remaining[index + 1].hasPrefix("--") else {
            throw usage("The option \(name) needs a value.")
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    /// Removes every occurrence of an option that may be repeated, in order.
    /// - Parameter name: The option, such as `--fail`.
    /// - Returns: Its values; empty when it was not given.
    /// - Throws: A usage error when an occurrence has no value.
    public mutating func options(_ name: String) throws(Failure) -> [String] {
        var values: [String] = []
        while let value = try option(name) { values.append(value) }
        return values
    }

    /// Removes the next positional argument, if there is one.
    /// - Returns: The argument, or `nil`.
    public mutating func optionalPositional() -> String? {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("-") || $0 == "-" }) else { return nil }
        return remaining.remove(at: index)
    }

    /// Removes the next positional argument.
    /// - Parameter name: What the argument is, such as `URL`, for the error message.
    /// - Returns: The argument.
    /// - Throws: A usage error when there is none.
    public mutating func positional(_ name: String) throws(Failure) -> String {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("--") }) else {
            throw usage("\(command) needs \(name).")
        }
        return remaining.remove(at: index)
    }

    /// Checks that every argument was used.
    /// - Throws: A usage error naming the first argument no one asked for.
    public func finish() throws(Failure) {
        if let extra = remaining.first {
            throw usage("Unknown argument \(extra.debugDescription).")
        }
    }

    /// The command's usage error for a sentence about its command line.
    public func usage(_ message: String) -> Failure {
        makeError(message)
    }
}

extension LegacyCommandLineArguments where Failure == UsageError {
    /// Wraps the arguments of a command whose mistakes are plain ``UsageError``s.
    /// - Parameters:
    ///   - arguments: The arguments after the command's name.
    ///   - command: The command's name, for error messages.
    public init(_ arguments: [String], command: String) {
        self.init(arguments, command: command) { UsageError($0) }
    }
}

extension LegacyCommandLineArguments {
    /// Removes an option that also has a short form, such as `--app-bundle-id` and Apple's `-b`.
    /// - Parameters:
    ///   - name: The long form.
    ///   - alias: The short form.
    /// - Returns: The value, or `nil` when neither form was given.
    /// - Throws: A usage error when a form has no value, or when both forms were given.
    public mutating func option(_ name: String, alias: String) throws(Failure) -> String? {
        let long = try option(name)
        let short = try option(alias)
        if long != nil, short != nil {
            throw usage("\(name) and \(alias) are the same option; give it once.")
        }
        return long ?? short
    }

    /// Removes an option whose value is `on` or `off`.
    /// - Parameter name: The option, such as `--low-power`.
    /// - Returns: `true` for on, `false` for off, `nil` when the option was not given.
    /// - Throws: A usage error naming the option when its value is missing or neither on nor off.
    public mutating func switchOption(_ name: String) throws(Failure) -> Bool? {
        guard let value = try option(name) else { return nil }
        switch value.lowercased() {
        case "on": return true
        case "off": return false
        default: throw usage("\(name) takes on or off, not \(value.debugDescription).")
        }
    }

    /// Removes an option whose value is a whole number within a range.
    /// - Parameters:
    ///   - name: The option, such as `--port`.
    ///   - range: The values accepted.
    ///   - expected: What the value must be, for the error message, such as `a port from 0 to 65535`.
    /// - Returns: The number, or `nil` when the option was not given.
    /// - Throws: A usage error naming the option and the value when it is not a number in the range.
    public mutating func number<Number: FixedWidthInteger & Sendable>(
        _ name: String, in range: ClosedRange<Number>, expected: String
    ) throws(Failure) -> Number? {
        guard let text = try option(name) else { return nil }
        guard let number = Number(text), range.contains(number) else {
            throw usage("\(name) takes \(expected), not \(text.debugDescription).")
        }
        return number
    }
}
