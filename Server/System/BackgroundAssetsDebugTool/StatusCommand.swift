/*
Abstract:
`status`: the service, the settings, every app and every download, as a table, plain lines, or JSON.
*/

import BackgroundAssetsIPC
import Foundation

/// Shows the service, the device settings, every installed app, and every download of every app.
struct StatusCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "status", abstract: "Show the service, the device settings, every installed app and every download.",
        discussion: """
            Starts the service when it is not running. For each app: its version, whether it is installing
            (and how far) or launchable, whether it has launched, its next periodic check (or why none is
            scheduled), the extension runtime left today, the extension's pid while it runs, and why it was
            last stopped by force. On a terminal the downloads are an aligned table; otherwise every app and
            every download is one line of key=value pairs (apps start with bundle-id=, downloads with app=).
            """)

    @Flag("--json", help: "Print the status as JSON (dates in ISO 8601) instead of a table or plain lines.")
    var json: Bool

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        if json {
            // Printed as the pages arrive: thirty tools at once with 10,000 downloads each held
            // every download, and the whole text, before printing a line.
            let status = try await connection.send(.core(.fetchStatus)).expectedStatus()
            var pages: StatusPageSocket?
            try StatusJSON.print(status, nextPage: { after in
                let socket = try pages ?? StatusPageSocket(socketPath: context.paths.serviceSocket.path, hello: Hello(
                    bundleIdentifier: ToolContext.bundleIdentifier, role: .tool,
                    processIdentifier: ProcessInfo.processInfo.processIdentifier))
                pages = socket
                return try socket.page(after: after)
            }, output: context.console.outputFragment)
            return .success
        }
        let status = try await connection.fetchStatusWithEveryDownload()
        let formatter = StatusFormatter(status: status)
        if context.console.outputIsTerminal {
            context.console.output(formatter.table())
        } else {
            context.console.output(formatter.lines())
        }
        if let trusted = try? TrustStore(directory: context.paths.trustDirectory).list(), !trusted.isEmpty {
            let names = trusted.map { "\($0.summary.subject) (SHA-256 \($0.summary.sha256.prefix(16))…)" }
            context.console.output("Trusted CAs on this device: \(names.joined(separator: ", "))")
        }
        return .success
    }
}
