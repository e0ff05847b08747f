/*
Abstract:
The debug tool's dispatcher: picks the subcommand, runs it, and turns every error into a message and an exit code.
*/

import BackgroundAssets
import Foundation

/// `backgroundassets-debug`: the Linux counterpart of Apple's Background Assets debugging tool.
public enum DebugTool {
    /// Every subcommand, in the order `--help` lists them.
    public static let subcommands: [any DebugSubcommand.Type] = [
        StatusCommand.self, InstallCommand.self, UninstallCommand.self, SimulateCommand.self, SettingsCommand.self,
        TasksCommand.self,
        DownloadCommand.self, CancelCommand.self, ResetCommand.self, TraceCommand.self, PurgeCommand.self,
        TrustCommand.self, ClockCommand.self, PacksCommand.self,
    ]

    /// The whole help text.
    public static var usage: String {
        var names: [String] = []
        var list: [String] = []
        var details: [String] = []
        for command in subcommands {
            names.append(([command.name] + command.aliases).joined(separator: ", "))
            details.append("\(usageLine(of: command))\n\(command.details)")
        }
        let width = names.map(\.count).max() ?? 0
        for (name, command) in zip(names, subcommands) {
            list.append("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(command.summary)")
        }
        return """
            Usage: backgroundassets-debug SUBCOMMAND [options]

            Inspects and drives the Background Assets service (backgroundassetsd) of the device root named by
            BA_DEVICE_ROOT (default .device/ in the current directory), starting it when needed.

            Subcommands:
            \(list.joined(separator: "\n"))

            \(details.joined(separator: "\n\n"))

            Exit codes: 0 success, 1 failure (the reason is printed), 64 usage error, 130 interrupted.
            """
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
        if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            context.console.output("Usage: \(usageLine(of: type))\n\(type.summary)\n\(type.details)")
            return .success
        }
        do {
            return try await parseAndRun(type, Array(arguments.dropFirst()), name: name, context: context)
        } catch let error as DebugToolError {
            context.console.error("backgroundassets-debug \(name): \(error.message)")
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

    /// Parses a subcommand's arguments and runs it; generic so no existential value is ever built.
    private static func parseAndRun<Command: DebugSubcommand>(
        _ type: Command.Type, _ arguments: [String], name: String, context: ToolContext
    ) async throws -> DebugExitCode {
        var parsed = SubcommandArguments(arguments, subcommand: name)
        let command = try Command(parsing: &parsed)
        try parsed.finish()
        return try await command.run(in: context)
    }

    /// The usage line of a subcommand, such as `backgroundassets-debug status [--json]`.
    static func usageLine(of command: any DebugSubcommand.Type) -> String {
        "backgroundassets-debug \(command.name) \(command.synopsis)"
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
