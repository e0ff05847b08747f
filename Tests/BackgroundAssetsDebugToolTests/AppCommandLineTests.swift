/*
Abstract:
Unit tests of the command lines that drive installed apps: install, uninstall, simulate (and Apple's -s, -b), settings.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Parse the app commands' command lines")
struct AppCommandLineTests {
    /// Parses a subcommand the way the dispatcher does.
    static func parse<Command: DebugSubcommand>(_ type: Command.Type, _ line: [String]) throws -> Command {
        try Command.parsing(line)
    }

    /// Expects a usage error whose message names `expected`.
    static func expectUsageError<Command: DebugSubcommand>(
        _ type: Command.Type, _ line: [String], naming expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try parse(type, line)
            Issue.record("\(type.name) \(line) was accepted.", sourceLocation: sourceLocation)
        } catch let error as DebugToolError {
            #expect(error.exitCode == .usage, "\(line)", sourceLocation: sourceLocation)
            #expect(error.message.contains(expected), "\(line): \(error.message)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(line) threw \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("install defaults to App/Info.plist and, when it is that app's extension, Extension/Info.plist, as absolute paths")
    func installDefaults() throws {
        let command = try Self.parse(InstallCommand.self, [])
        let here = FileManager.default.currentDirectoryPath
        let expected = URL(fileURLWithPath: here).appending(path: "App/Info.plist").standardizedFileURL
        #expect(command.appPlist.path == expected.path)
        #expect(command.extensionPlist == nil, "the default is decided from the files")
        let folder = try TemporaryDirectory(prefix: "install-defaults")
        let app = folder.url.appending(path: "App/Info.plist")
        let appExtension = folder.url.appending(path: "Extension/Info.plist")
        for (file, identifier) in [(app, "com.example.app"), (appExtension, "com.example.app.Downloader")] {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": identifier], format: .xml, options: 0).write(to: file)
        }
        #expect(InstallCommand.defaultExtensionPlist(of: app, in: folder.url)?.path == appExtension.standardizedFileURL.path)
        let game = folder.url.appending(path: "Game.plist")
        try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": "com.example.game"], format: .xml, options: 0).write(to: game)
        #expect(InstallCommand.defaultExtensionPlist(of: game, in: folder.url) == nil, "another app's extension is not this app's")
        #expect(command.version == nil)
        #expect(!command.wait)
    }

    @Test("install takes its plists, a version and --wait; relative paths become absolute")
    func installOptions() throws {
        let command = try Self.parse(
            InstallCommand.self,
            ["--app-plist", "a/../b/App.plist", "--extension-plist=/x/Ext.plist", "--version", "2", "--wait"])
        #expect(command.appPlist.path.hasPrefix("/"))
        #expect(command.appPlist.path.hasSuffix("/b/App.plist"))
        #expect(!command.appPlist.path.contains(".."))
        #expect(command.extensionPlist?.path == "/x/Ext.plist")
        #expect(command.version == "2")
        #expect(command.wait)
        Self.expectUsageError(InstallCommand.self, ["--version", ""], naming: "--version")
        Self.expectUsageError(InstallCommand.self, ["--app-plist"], naming: "--app-plist")
        Self.expectUsageError(InstallCommand.self, ["--wait", "--bogus"], naming: "--bogus")
    }

    @Test("install refuses a missing Info.plist by name before it reaches the service")
    func installNamesMissingFile() async throws {
        let root = try TemporaryDeviceRoot()
        let appPlist = root.appending("App/Info.plist")
        try FileManager.default.createDirectory(
            at: appPlist.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<plist/>".utf8).write(to: appPlist)
        let missing = root.appending("Extension/Missing.plist")
        let command = try Self.parse(
            InstallCommand.self, ["--app-plist", appPlist.path, "--extension-plist", missing.path])
        // The device root has no service and none can be started from the test bundle's folder, so
        // anything but the file check would fail differently.
        await #expect {
            try await command.run(in: ToolContext.recording(DevicePaths(root: root.url)))
        } throws: { error in
            let error = error as? DebugToolError
            return error?.exitCode == .failure && error?.message.contains(missing.path) == true
                && error?.message.contains("--extension-plist") == true
        }
    }

    @Test("uninstall takes --app-bundle-id or -b, and none means the only app")
    func uninstall() throws {
        #expect(try Self.parse(UninstallCommand.self, []).bundleIdentifier == nil)
        let long = try Self.parse(UninstallCommand.self, ["--app-bundle-id", "com.example.a"])
        #expect(long.bundleIdentifier == "com.example.a")
        #expect(try Self.parse(UninstallCommand.self, ["-b", "com.example.b"]).bundleIdentifier == "com.example.b")
        Self.expectUsageError(UninstallCommand.self, ["-b", "x", "--app-bundle-id", "y"], naming: "-b")
        Self.expectUsageError(UninstallCommand.self, ["-b"], naming: "-b")
    }

    @Test("simulate takes exactly one event, and Apple's -b for the app")
    func simulate() throws {
        let cases: [([String], ContentRequestKind, String?)] = [
            (["--app-install", "-b", "com.example.a"], .install, "com.example.a"),
            (["--app-update"], .update, nil),
            (["--app-bundle-id=com.example.c", "--periodic-check"], .periodic, "com.example.c"),
        ]
        for (line, kind, app) in cases {
            let command = try Self.parse(SimulateCommand.self, line)
            #expect(command.kind == kind, "\(line)")
            #expect(command.bundleIdentifier == app, "\(line)")
        }
        Self.expectUsageError(SimulateCommand.self, [], naming: "--app-install, --app-update, --periodic-check")
        Self.expectUsageError(SimulateCommand.self, ["-b", "com.example.a"], naming: "needs one of")
        Self.expectUsageError(
            SimulateCommand.self, ["--app-install", "--periodic-check"], naming: "--app-install and --periodic-check")
        Self.expectUsageError(SimulateCommand.self, ["--app-update", "-d", "DEVICE"], naming: "\"-d\"")
    }

    @Test("-s and --simulate select simulate, as in Apple's tool; other words select nothing")
    func simulateAliases() async {
        for word in ["-s", "--simulate", "simulate"] {
            #expect(DebugTool.subcommand(named: word)?.name == "simulate", "\(word)")
        }
        #expect(DebugTool.subcommand(named: "-b") == nil)
        // Parsing fails before any connection is made, so no service is needed.
        let context = ToolContext.recording(DevicePaths(root: FileManager.default.temporaryDirectory))
        #expect(await DebugTool.run(arguments: ["-s", "-b", "com.example.a"], context: context) == .usage)
        #expect(await DebugTool.run(arguments: ["-s", "--app-install", "--app-update"], context: context) == .usage)
        #expect(DebugTool.usage.contains("simulate, -s, --simulate"))
    }

    @Test("settings reads on and off for each switch, and an app only with --background-refresh")
    func settings() throws {
        #expect(try Self.parse(SettingsCommand.self, []).change.isEmpty)
        let change = try Self.parse(
            SettingsCommand.self,
            ["--low-power", "on", "--background-refresh=off", "-b", "com.example.a", "--in-app-content", "OFF"]
        ).change
        #expect(change == SettingsChange(
            lowPowerMode: true, backgroundAppRefresh: false, app: "com.example.a", inAppContent: false))
        #expect(try Self.parse(SettingsCommand.self, ["--background-refresh", "on"]).change.app == nil)

        Self.expectUsageError(SettingsCommand.self, ["--low-power", "yes"], naming: "--low-power")
        Self.expectUsageError(SettingsCommand.self, ["--in-app-content", "1"], naming: "--in-app-content")
        Self.expectUsageError(SettingsCommand.self, ["--background-refresh", "maybe"], naming: "\"maybe\"")
        Self.expectUsageError(SettingsCommand.self, ["-b", "com.example.a"], naming: "--background-refresh")
        #expect(try Self.parse(SettingsCommand.self, ["--notifications", "deny", "--app-bundle-id", "com.example.a"])
            .change == SettingsChange(app: "com.example.a", notifications: false))
        Self.expectUsageError(SettingsCommand.self, ["--low-power"], naming: "--low-power")
    }

    @Test("Every subcommand about one app names it -b or --app-bundle-id; the former --app names the new spelling")
    func oneAppOption() async throws {
        let aboutOneApp = [
            "uninstall", "simulate", "settings", "tasks", "cancel", "trace", "purge", "notifications", "packs",
        ]
        for command in DebugTool.subcommands {
            let names = command.signature.allOptions.map(\.names)
            #expect(!names.contains { $0.contains("--app") }, "\(command.name) still answers to --app")
            #expect(names.contains(["-b", "--app-bundle-id"]) == aboutOneApp.contains(command.name), "\(command.name)")
        }
        let context = ToolContext.recording(DevicePaths(root: FileManager.default.temporaryDirectory))
        let lines = [
            ["settings", "--app", "a"], ["cancel", "x", "--app=a"], ["trace", "--app", "a"], ["tasks", "--app", "a"],
        ]
        for line in lines {
            let transcript = ConsoleTranscript()
            let code = await DebugTool.run(arguments: line, context: .recording(context.paths, into: transcript))
            #expect(code == .usage)
            #expect(transcript.error == "backgroundassets-debug \(line[0]): --app is now -b/--app-bundle-id. "
                + "Run backgroundassets-debug \(line[0]) --help for its options.\n", "\(line)")
        }
    }

    @Test("The tool's help is one line per subcommand; a usage error points to its subcommand's help")
    func shortHelp() async {
        let lines = DebugTool.usage.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < DebugTool.subcommands.count + 16, "\(DebugTool.usage)")
        #expect(DebugTool.usage.contains("Run `backgroundassets-debug SUBCOMMAND --help` for a subcommand's options."))
        #expect(!DebugTool.usage.contains("--app-plist"), "options are in each subcommand's help")
        let transcript = ConsoleTranscript()
        let context = ToolContext.recording(DevicePaths(root: FileManager.default.temporaryDirectory), into: transcript)
        #expect(await DebugTool.run(arguments: ["install", "--bogus"], context: context) == .usage)
        #expect(transcript.error == "backgroundassets-debug install: Unknown argument \"--bogus\". "
            + "Run backgroundassets-debug install --help for its options.\n")
    }

    @Test("settings takes the Apple hosting server as an https or loopback http URL, none to remove it")
    func appleHostingServer() throws {
        #expect(try Self.parse(SettingsCommand.self, ["--apple-hosting-server", "http://127.0.0.1:8080"]).change
            == SettingsChange(appleHostingServer: "http://127.0.0.1:8080"))
        #expect(try Self.parse(SettingsCommand.self, ["--apple-hosting-server", "none"]).change
            == SettingsChange(appleHostingServer: ""))
        Self.expectUsageError(SettingsCommand.self, ["--apple-hosting-server", "ftp://mirror.example.com"],
                              naming: "--apple-hosting-server")
        Self.expectUsageError(SettingsCommand.self, ["--apple-hosting-server", "http://cdn.example.com"],
                              naming: "\"http://cdn.example.com\"")
    }

    @Test("Every option a subcommand's --help lists is accepted, and every option it accepts is listed")
    func helpListsWhatIsParsed() async throws {
        let context = ToolContext.recording(DevicePaths(root: FileManager.default.temporaryDirectory))
        for command in DebugTool.subcommands {
            let transcript = ConsoleTranscript()
            let recording = ToolContext.recording(context.paths, into: transcript)
            #expect(await DebugTool.run(arguments: [command.name, "--help"], context: recording) == .success)
            let help = transcript.output
            #expect(DebugTool.usage.contains("   \(command.signature.abstract)\n"),
                    "the tool's help lists \(command.name)")
            for probe in HelpOptions.probes(inHelp: help) {
                let line = [command.name] + probe
                let refusal = ConsoleTranscript()
                #expect(await DebugTool.run(arguments: line, context: .recording(context.paths, into: refusal)) == .usage)
                // The unlisted word is the one refused: the option before it, and its value, were read.
                #expect(refusal.error.hasPrefix("backgroundassets-debug \(command.name): \(HelpOptions.unlistedRefusal)"),
                        "\(line): \(refusal.error)")
            }
            let accepted = command.signature.allOptions.flatMap(\.names)
            #expect(Set(accepted) == Set(HelpOptions.spellings(inHelp: help)), "\(command.name): \(help)")
        }
    }
}
