/*
Abstract:
`cancel`: removes one queued or running download of an app.
*/

import BackgroundAssetsIPC

/// Cancels a download by its identifier, the tool's own or an app's.
struct CancelCommand: DebugSubcommand {
    static let name = "cancel"
    static let synopsis = "ID [--app BUNDLE_ID]"
    static let summary = "Cancel a queued or running download."
    static let details = """
          --app BUNDLE_ID   The app that owns the download (default: the tool's own downloads,
                            \(ToolContext.bundleIdentifier)). `status` lists both columns.
        """

    var identifier: String
    var bundleIdentifier: String

    init(parsing arguments: inout SubcommandArguments) throws(DebugToolError) {
        bundleIdentifier = try arguments.option("--app") ?? ToolContext.bundleIdentifier
        identifier = try arguments.positional("the ID of the download to cancel (see status)")
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection(bundleIdentifier: bundleIdentifier)
        defer { connection.disconnect() }
        // The service finds the download by the app and the identifier; the rest of the descriptor is unused.
        let descriptor = DownloadDescriptor(
            identifier: identifier, uniqueIdentifier: "", url: "", applicationGroupIdentifier: "")
        _ = try await connection.send(.cancel(download: descriptor))
        context.console.output("Cancelled \(identifier) of \(bundleIdentifier).")
        return .success
    }
}
