/*
Abstract:
The demo's command line.
*/

import ArgumentParsing
import AssetServer
import Foundation

/// What one run of the demo was asked to do.
struct DemoOptions {
    static var usage: String {
        let app = SampleAppInfo(repository: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).displayName
        return """
        Usage: wwdc-sessions-demo [--step] [--https] [--port PORT] [--catalog DIR] [--timeout SECONDS]

        Runs \(app), the app of App/Info.plist, end to end: starts (or reuses) the asset server,
        installs the app with backgroundassets-debug (the extension runs and the essential sessions
        download), launches the app (in-flight downloads move to the foreground and the rest finish),
        then prints a summary.
        Build everything first, from the repository's root: swift build && swift run wwdc-sessions-demo

        Options:
          --step              Pause before each step with a paragraph on what is about to happen.
          --https             Serve over https with a local CA (in .tls/) that the device is told to trust.
          --port PORT         The asset server's port (default: the port of BAManifestURL in
                              App/Info.plist, 8080 as shipped; 0 starts one on a free port).
          --catalog DIR       The catalog a started asset server serves or generates (default .catalog).
          --timeout SECONDS   How long the app may take to download every session (default 600).

        The device root is $BA_DEVICE_ROOT (default .device). Ctrl-C stops every process the demo started.
        """
    }

    var step = false
    var https = false
    var port = SamplePort.fromAppInfoPlist(
        searchingFrom: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
    var timeout = 600
    var catalog: String?
    var showHelp = false
    /// The repository's root: the current directory, where App/ and Extension/ are.
    var repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)

    /// Parses `arguments` (without the program name); `--flag value` and `--flag=value` are both accepted.
    /// - Throws: ``UsageError`` naming the argument at fault.
    init(arguments: [String]) throws(UsageError) {
        var arguments = LegacyCommandLineArguments(arguments, command: "wwdc-sessions-demo")
        showHelp = arguments.flag("--help", "-h")
        step = arguments.flag("--step")
        https = arguments.flag("--https")
        port = try arguments.number("--port", in: 0...65_535, expected: "a port from 0 to 65535") ?? port
        timeout = try arguments.number("--timeout", in: 1...86_400, expected: "seconds from 1 to 86400") ?? timeout
        catalog = try arguments.option("--catalog")
        try arguments.finish()
    }
}

extension DemoOptions {
    /// The `asset-server` command that serves what the demo serves, where the installed app looks for it.
    /// - Parameter port: The port the demo's server listens on, when known.
    func assetServerCommand(port: Int?) -> String {
        var command = "asset-server"
        let shipped = SamplePort.fromAppInfoPlist(searchingFrom: repository)
        if let port, port != 0, port != shipped { command += " --port \(port)" }
        if let catalog { command += " --catalog \(catalog)" }
        if https { command += " --tls" }
        return command
    }
}
