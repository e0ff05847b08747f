/*
Abstract:
Options the new subcommands share: a long option with Apple's short alias, and on/off switches.
*/

extension CommandLineArguments {
    /// Removes an option that also has a short form, such as `--app-bundle-id` and Apple's `-b`.
    /// - Parameters:
    ///   - name: The long form.
    ///   - alias: The short form.
    /// - Returns: The value, or `nil` when neither form was given.
    /// - Throws: A usage error when a form has no value, or when both forms were given.
    public mutating func option(_ name: String, alias: String) throws(DebugToolError) -> String? {
        let long = try option(name)
        let short = try option(alias)
        if long != nil, short != nil {
            throw .usage("\(name) and \(alias) are the same option; give it once.")
        }
        return long ?? short
    }

    /// Removes an option whose value is `on` or `off`.
    /// - Parameter name: The option, such as `--low-power`.
    /// - Returns: `true` for on, `false` for off, `nil` when the option was not given.
    /// - Throws: A usage error naming the option when its value is missing or neither on nor off.
    public mutating func switchOption(_ name: String) throws(DebugToolError) -> Bool? {
        guard let value = try option(name) else { return nil }
        switch value.lowercased() {
        case "on": return true
        case "off": return false
        default: throw .usage("\(name) takes on or off, not \(value.debugDescription).")
        }
    }
}
