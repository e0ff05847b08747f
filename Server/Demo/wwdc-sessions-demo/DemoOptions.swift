/*
Abstract:
The demo's command line, declared once for its parsing and its help.
*/

import ArgumentParsing
import AssetServer
import Foundation

/// What one run of the demo was asked to do.
struct DemoOptions: ParsableArguments {
    static var configuration: CommandConfiguration {
        let app = SampleAppInfo(repository: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).displayName
        return CommandConfiguration(
            name: "wwdc-sessions-demo",
            abstract: """
                Runs \(app), the app of App/Info.plist, end to end: starts (or reuses) the asset server,
                installs the app with backgroundassets-debug (the extension runs and the essential sessions
                download), launches the app (in-flight downloads move to the foreground and the rest finish),
                then prints a summary.
                Build everything first, from the repository's root: swift build && swift run wwdc-sessions-demo
                """,
            discussion: """
                The device root is $BA_DEVICE_ROOT (default .device); one demo runs on it at a time. Ctrl-C stops
                every process the demo started.
                """)
    }

    @Flag("--step", help: "Pause before each step with a paragraph on what is about to happen.")
    var step: Bool
    @Flag("--https", help: "Serve over https with a local CA (in .tls/) that the device is told to trust.")
    var https: Bool
    @Option(
        "--port", valueName: "PORT", help: "The asset server's port; 0 starts one on a free port.",
        defaultDescription: "the port of BAManifestURL in App/Info.plist, 8080 as shipped",
        as: .number(in: 0...65_535, expected: "a port from 0 to 65535"))
    var requestedPort: Int?
    @Option(
        "--catalog", valueName: "DIR", help: "The catalog a started asset server serves or generates.",
        defaultDescription: ".catalog")
    var catalog: String?
    /// The TLS folder of a started https server; `nil` for the server's default, `.tls`.
    @Option(
        "--tls-dir", valueName: "DIR", help: "Where a started --https asset server keeps its local CA and certificate.",
        defaultDescription: ".tls")
    var tlsDirectory: String?
    @Option(
        "--timeout", valueName: "SECONDS", help: "How long the app may take to download every session.",
        as: .number(in: 1...86_400, expected: "seconds from 1 to 86400"))
    var timeout = 600
    /// The repository's root: the current directory, where App/ and Extension/ are.
    var repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)

    /// The asset server's port: the one given, else the one the app's Info.plist names.
    var port: Int { requestedPort ?? SamplePort.fromAppInfoPlist(searchingFrom: repository) }
}

extension DemoOptions {
    /// The `asset-server` command that serves what the demo serves, where the installed app looks for it.
    /// - Parameter port: The port the demo's server listens on, when known.
    func assetServerCommand(port: Int?) -> String {
        var command = "asset-server"
        let shipped = SamplePort.fromAppInfoPlist(searchingFrom: repository)
        if let port, port != 0, port != shipped { command += " --port \(port)" }
        if let catalog { command += " --catalog \(catalog)" }
        if https { command += " --tls" + (tlsDirectory.map { " --tls-dir \($0)" } ?? "") }
        return command
    }
}
