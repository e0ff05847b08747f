/*
Abstract:
`packs`: each app's managed asset packs: identifier, version, download policy, state and size on disk.
*/

import BackgroundAssetsIPC
import Foundation

/// Lists the managed asset packs of every installed app, or one app's.
struct PacksCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "packs", abstract: "List each app's managed asset packs: version, download policy, state and size on disk.",
        discussion: """
            One line per pack: the app, the pack's identifier, the version on the device (or the one on its
            way), its download policy, its state (installed, queued, downloading with its progress,
            installing, updating) and the bytes its files occupy. Packs arrive by their policy when the app
            is installed, and when the app asks (AssetPackManager); `purge` removes them as storage pressure
            would, on-demand packs first, never essential ones.
            """)

    @Flag("--json", help: "Print the packs as JSON, by app.")
    var json: Bool
    @Option(appBundleID: "Only this app's packs.")
    var bundleIdentifier: String?

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        let status = try await connection.send(.core(.fetchStatus)).expectedStatus()
        let apps = status.apps.filter { bundleIdentifier == nil || $0.bundleIdentifier == bundleIdentifier }
        if let bundleIdentifier, apps.isEmpty {
            throw DebugToolError("No app \(bundleIdentifier.debugDescription) is installed; status lists the installed apps.")
        }
        if json {
            let packs = Dictionary(uniqueKeysWithValues: apps.map { ($0.bundleIdentifier, $0.assetPacks ?? []) })
            context.console.output(try StatusFormatter.json(packs))
            return .success
        }
        let lines = PackFormatter(apps: apps).lines()
        context.console.output(lines.isEmpty
            ? "No managed asset packs" + (bundleIdentifier.map { " for \($0)." } ?? " on this device.")
            : lines.joined(separator: "\n"))
        return .success
    }
}
