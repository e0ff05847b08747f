/*
Abstract:
`uninstall`: removes an installed app with its downloads and its app group container.
*/

import BackgroundAssetsIPC

/// Removes an app the way deleting it from the home screen would.
struct UninstallCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "uninstall", abstract: "Remove an installed app with its downloads and its app group container.",
        discussion: """
            Stops the app's extension, cancels its downloads, and deletes its app group container unless
            another installed app shares it. The service refuses when no app is installed, or when several
            are and none is named.
            """)

    @Option(appBundleID: "The app to remove.", defaultDescription: "the only app installed; status lists them")
    var bundleIdentifier: String?

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        let app = try await connection.send(.tool(.uninstall(bundleIdentifier: bundleIdentifier)))
            .expectedApp(answering: "uninstall")
        context.console.output("Uninstalled \(StatusFormatter.shortened(app.bundleIdentifier)) version \(app.version): "
            + "removed the app, its extension, its downloads and, unless another app shares it, its app group "
            + "container (\(app.appGroup)).")
        return .success
    }
}
