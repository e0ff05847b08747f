/*
Abstract:
A subcommand's command line: the package's parser with the debug tool's usage error, and an option several share.
*/

@_exported import ArgumentParsing

/// The arguments of one subcommand; mistakes are ``DebugToolError/usage(_:)`` errors (exit code 64).
public typealias SubcommandArguments = CommandLineArguments<DebugToolError>

extension CommandLineArguments where Failure == DebugToolError {
    /// Parses the arguments that follow a subcommand's name.
    /// - Parameters:
    ///   - arguments: The arguments after the subcommand's name.
    ///   - subcommand: What the subcommand takes.
    /// - Throws: A usage ``DebugToolError`` naming the first argument at fault.
    public init(_ arguments: [String], subcommand: CommandSignature) throws(DebugToolError) {
        try self.init(arguments, signature: subcommand) { DebugToolError.usage($0) }
    }
}

extension Option where Value == String? {
    /// Apple's `-b ID`, or `--app-bundle-id ID`: the app a subcommand acts on, named the same way by
    /// every subcommand that takes one, and `-b` first so usage lines read as Apple's.
    ///
    /// The former `--app` of `settings`, `cancel` and `trace` is refused with the spelling to use:
    /// accepting it too would keep two conventions alive.
    /// - Parameters:
    ///   - help: What the app is to the subcommand.
    ///   - defaultDescription: Which app, when none is named.
    ///   - traits: Its group, if any.
    init(appBundleID help: String, defaultDescription: String? = nil, traits: [ArgumentTrait] = []) {
        self.init(
            "-b", "--app-bundle-id", valueName: "ID", help: help, defaultDescription: defaultDescription,
            traits: traits + [.retiring("--app")])
    }
}

extension Option where Value == String {
    /// The app a subcommand acts on, as ``init(appBundleID:defaultDescription:traits:)`` declares it,
    /// with an app when none is named.
    init(wrappedValue: String, appBundleID help: String, defaultDescription: String? = nil) {
        self.init(
            wrappedValue: wrappedValue, "-b", "--app-bundle-id", valueName: "ID", help: help,
            defaultDescription: defaultDescription, traits: [.retiring("--app")])
    }
}
