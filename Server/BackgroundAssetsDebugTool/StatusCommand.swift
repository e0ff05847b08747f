/*
Abstract:
`status`: the service's state and every download it holds, as a table, plain lines, or JSON.
*/

import BackgroundAssetsIPC
import Foundation

/// Shows the service and every download of every app.
struct StatusCommand: DebugSubcommand {
    static let name = "status"
    static let synopsis = "[--json]"
    static let summary = "Show the service's state and every download in its queue."
    static let details = """
          --json   Print the status as JSON (dates in ISO 8601) instead of a table or plain lines.
        Starts the service when it is not running. Shows an aligned table when standard output is a
        terminal, one line of key=value pairs for each download otherwise.
        """

    var json: Bool

    init(parsing arguments: inout CommandLineArguments) throws(DebugToolError) {
        json = arguments.flag("--json")
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        guard case let .status(status) = try await connection.send(.fetchStatus) else {
            throw DebugToolError("The service answered fetchStatus with something other than a status; "
                + "rebuild the tool and the service from the same sources.")
        }
        let formatter = StatusFormatter(status: status)
        if json {
            context.console.output(try formatter.json())
        } else if context.console.outputIsTerminal {
            context.console.output(formatter.table())
        } else {
            context.console.output(formatter.lines())
        }
        return .success
    }
}
