/*
Abstract:
The debug tool's dispatcher: picks the subcommand, runs it, and turns every error into a message and an exit code.
*/

import BackgroundAssetsIPC
import Foundation

/// `backgroundassets-debug`: the Linux counterpart of Apple's Background Assets debugging tool.
public enum DebugTool {
    /// Every subcommand, in the order `--help` lists them.
    public static let subcommands: [any DebugSubcommand.Type] = [
        StatusCommand.self, InstallCommand.self, UninstallCommand.self, SimulateCommand.self, SettingsCommand.self,
        TasksCommand.self,
        DownloadCommand.self, CancelCommand.self, ResetCommand.self, TraceCommand.self, PurgeCommand.self,
        TrustCommand.self, ClockCommand.self,
        NotificationsCommand.self, PacksCommand.self,
    ]

    /// The tool's help: one line per subcommand, and where each one's options are. A subcommand's
    /// options are in its own `--help`, so this stays one screen as subcommands grow.
    public static var usage: String {
        let list = subcommands.map { command in
            HelpRow(label: ([command.name] + command.aliases).joined(separator: ", "), text: command.signature.abstract)
        }
        return """
            Usage: backgroundassets-debug SUBCOMMAND [options]

            Inspects and drives the Background Assets service (backgroundassetsd) of the device root named by
            BA_DEVICE_ROOT (default .device/ in the current directory), starting it when needed.

            Subcommands:
            \(HelpTable.render(list, wraps: false))

            Run `backgroundassets-debug SUBCOMMAND --help` for a subcommand's options. Every subcommand that is
            about one app takes it as -b ID (or --app-bundle-id ID).

            Exit codes: 0 success, 1 failure (the reason is printed), 2 installed without its content (install
            --wait, when the manifest could not be fetched), 64 usage error, 130 interrupted.
            """
    }

    /// The sentence a usage error ends with: where the subcommand's options are.
    /// - Parameter name: The subcommand's name, such as `install`.
    static func helpPointer(for name: String) -> String {
        "Run backgroundassets-debug \(name) --help for its options."
    }

    /// Parses the command line, runs the subcommand, and reports its outcome.
    /// - Parameters:
    ///   - arguments: The arguments without the program name.
    ///   - context: Where to print and which device root to use.
    /// - Returns: The exit code for the process.
    public static func run(arguments: [String], context: ToolContext) async -> DebugExitCode {
        guard let word = arguments.first, !["--help", "-h", "help"].contains(word) else {
            if arguments.isEmpty {
                context.console.error(usage)
                return .usage
            }
            context.console.output(usage)
            return .success
        }
        guard let type = subcommand(named: word) else {
            let known = subcommands.map { $0.name }.joined(separator: ", ")
            context.console.error("backgroundassets-debug: Unknown subcommand \(word.debugDescription); use one of \(known), or --help.")
            return .usage
        }
        // Errors name the subcommand by its name even when an alias such as -s selected it.
        let name = type.name
        do {
            return try await parseAndRun(type, Array(arguments.dropFirst()), context: context)
        } catch let error as DebugToolError {
            let pointer = error.exitCode == .usage ? " " + helpPointer(for: name) : ""
            context.console.error("backgroundassets-debug \(name): \(error.message)\(pointer)")
            return error.exitCode
        } catch let error as BAError where error.code == .downloadNotScheduled {
            context.console.error("backgroundassets-debug \(name): \(error.message) Run status to list the downloads.")
            return .failure
        } catch {
            context.console.error("backgroundassets-debug \(name): \(describe(error))")
            return .failure
        }
    }

    /// The subcommand a word selects, by its name or one of its aliases.
    /// - Parameter word: The first argument, such as `status` or `-s`.
    /// - Returns: The subcommand's type, or `nil` when no subcommand answers to the word.
    static func subcommand(named word: String) -> (any DebugSubcommand.Type)? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// Parses a subcommand's arguments and runs it, or prints its help; generic so no existential value is ever built.
    private static func parseAndRun<Command: DebugSubcommand>(
        _ type: Command.Type, _ arguments: [String], context: ToolContext
    ) async throws -> DebugExitCode {
        let parsed = try SubcommandArguments(arguments, subcommand: Command.signature)
        if parsed.isHelpRequested {
            context.console.output("Usage: \(usageLine(of: type))\n\(Command.signature.abstract)\n\(details(of: type))")
            return .success
        }
        let command = try Command(from: parsed)
        try command.prepare()
        // Once, before the command's own lines: which device it acts on, when it is not the expected one.
        if let note = context.deviceRootNote { context.console.error(note) }
        return try await command.run(in: context)
    }

    /// The usage line of a subcommand, such as `backgroundassets-debug status [--json]`.
    static func usageLine(of command: any DebugSubcommand.Type) -> String {
        ["backgroundassets-debug", command.name, command.signature.synopsis].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// What the help says of a subcommand under its usage line: a row for each of its arguments, options and
    /// subcommands, then its details.
    static func details(of command: any DebugSubcommand.Type) -> String {
        let signature = command.signature
        let rows = HelpTable.render(signature.argumentRows + signature.optionRows + signature.commandRows)
        return [rows, signature.discussion].filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// The message of an error from the service or the framework, without Foundation's decoration.
    /// - Parameter error: Any error.
    /// - Returns: A sentence for the terminal.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as BAError: error.message
        case let error as DebugToolError: error.message
        default: (error as NSError).localizedDescription
        }
    }
}
