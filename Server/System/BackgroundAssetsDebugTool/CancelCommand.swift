/*
Abstract:
`cancel`: removes one queued or running download of an app.
*/

import BackgroundAssetsIPC

/// Cancels a download by its identifier, the tool's own or an app's.
struct CancelCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(name: "cancel", abstract: "Cancel a queued or running download.")

    @Argument("DOWNLOAD_ID", help: "The download's identifier, as status lists it.")
    var identifier: String
    @Option(
        appBundleID: "The app that owns the download; status lists both columns.",
        defaultDescription: "the tool's own downloads, \(ToolContext.bundleIdentifier)")
    var bundleIdentifier = ToolContext.bundleIdentifier

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection(bundleIdentifier: bundleIdentifier)
        defer { connection.disconnect() }
        // The service finds the download by the app and the identifier; the rest of the descriptor is unused.
        let descriptor = DownloadDescriptor(
            identifier: identifier, uniqueIdentifier: "", url: "", applicationGroupIdentifier: "")
        _ = try await connection.send(.downloads(.cancel(download: descriptor)))
        context.console.output("Cancelled \(identifier) of \(bundleIdentifier).")
        return .success
    }
}
