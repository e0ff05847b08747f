/*
Abstract:
Typed option values: numbers within a range, on/off switches, and long options with a short alias.
*/

extension CommandLineArguments {
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
