/*
Abstract:
`install`: installs or updates an app from its two Info.plists, playing the App Store.
*/

import BackgroundAssetsIPC
import Foundation
import ServiceClient

/// Asks the service to install an app (or update it, when a lower version is installed) and,
/// with `--wait`, follows the install until the app is launchable.
struct InstallCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "install", abstract: "Install or update an app from its Info.plists, as the App Store would.",
        discussion: """
            The service validates both Info.plists and refuses with the file and key at fault. The app's and
            the extension's executables are taken from this tool's own folder, where swift build puts every
            product. Without --wait the install continues in the background; status follows it.
            """)

    /// Where `--app-plist` is looked for when not given.
    static let defaultAppPlist = "App/Info.plist"

    @Option(
        "--app-plist", valueName: "PATH", help: "The app's Info.plist.",
        defaultDescription: "App/Info.plist in the current folder")
    var appPlistPath = Self.defaultAppPlist
    @Option(
        "--extension-plist", valueName: "PATH", help: """
            The extension's Info.plist. An app whose extension is not there is installed without one: it has \
            no Background Assets keys and downloads with a background URLSession, for example.
            """,
        defaultDescription: "Extension/Info.plist when it is the extension of the app being installed")
    var extensionPlistPath: String?
    @Option(
        "--version", valueName: "V", help: """
            Install this CFBundleVersion instead of the Info.plists' own; a version above the installed one \
            makes the install an update.
            """,
        as: ArgumentConversion { version throws(UsageError) in
            guard !version.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("--version needs a CFBundleVersion such as 2 or 1.1, not an empty string.")
            }
            return version
        })
    var version: String?
    @Flag("--wait", help: """
        Stay until the app is launchable: show the install's progress (a bar on a terminal, a line per phase or \
        10% otherwise), then a summary of its essential downloads. An update asked for while another version is \
        still installing waits for that install to end. Essential downloads that wait for a server say so. Exits \
        2 when the app was installed without its content because its manifest could not be fetched. Ctrl-C stops \
        waiting, not the install.
        """)
    var wait: Bool

    // Relative paths are taken from the current folder now, because the service runs elsewhere.
    var appPlist: URL { URL(fileURLWithPath: appPlistPath).standardizedFileURL }
    /// The extension's Info.plist as given; `nil` means the default, when it is the app's extension.
    var extensionPlist: URL? { extensionPlistPath.map { URL(fileURLWithPath: $0).standardizedFileURL } }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        try Self.requireFile(appPlist, given: _appPlistPath.definition, usually: Self.defaultAppPlist)
        if let extensionPlist { try Self.requireFile(extensionPlist, given: _extensionPlistPath.definition, usually: nil) }
        let request = InstallRequest(
            appPlistPath: appPlist.path, extensionPlistPath: (extensionPlist ?? Self.defaultExtensionPlist(of: appPlist))?.path,
            executablesDirectory: try Self.executablesDirectory().path, version: version)

        let (signals, continuation) = AsyncStream<InstallWaiter.Signal>.makeStream()
        let connection = context.connection { event in
            if case let .installProgress(app, progress) = event { continuation.yield(.progress(bundleIdentifier: app, progress)) }
        }
        // Events are wanted, but not as a delegate: a delegate is handed download callbacks the
        // service would otherwise route elsewhere, and this connection only waits for progress.
        connection.setWantsEvents(false)
        defer { connection.disconnect() }

        // Only to tell an update from an install; the install itself does not depend on it.
        var before: [AppStatus]?
        if case let .status(status)? = try? await connection.send(.core(.fetchStatus)) { before = status.apps }
        let answer: ServerResponse
        do {
            answer = try await connection.send(.tool(.install(request)))
        } catch let refusal as NSError where wait && refusal.domain == InstallRequest.refusalDomain
            && refusal.code == InstallRequest.busyCode {
            // Another version is still installing (a simulated install, say): with --wait, wait
            // for it to end, as the App Store queues an update behind an install, then ask again.
            guard let busy = Self.bundleIdentifier(in: appPlist) else { throw refusal }
            context.console.error("\(StatusFormatter.shortened(busy)) is still installing another version; waiting for "
                + "that install to end before this one, as the App Store queues an update behind an install. "
                + "Ctrl-C stops waiting.")
            _ = try await connection.send(.core(.awaitLaunchable(bundleIdentifier: busy, recordLaunch: false)))
            answer = try await connection.send(.tool(.install(request)))
        }
        let app = try answer.expectedApp(answering: "install")
        let headline = InstallSummary.headline(for: app, before: before)
        guard wait else {
            context.console.output(app.state == .launchable
                ? "\(headline); it is launchable now."
                : "\(headline); the install continues in the background. "
                    + "Run `backgroundassets-debug status` to follow it.")
            return .success
        }

        context.console.output("\(headline); waiting until it is launchable.")
        DebugTool.interruptionNote.withLock {
            $0 = "Interrupted: the install of \(app.bundleIdentifier) continues in the service. "
                + "Run `backgroundassets-debug status` to follow it."
        }
        // The answer goes through the same stream as the events, so it cannot overtake the last of them.
        let awaitLaunchable = {
            connection.request(.core(.awaitLaunchable(bundleIdentifier: app.bundleIdentifier, recordLaunch: false))) {
                continuation.yield(.answer($0))
            }
        }
        awaitLaunchable()
        // Ticks let the waiter notice essential downloads that stand still, waiting for a server.
        let ticker = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }
        let bundleIdentifier = app.bundleIdentifier
        var waiter = InstallWaiter(
            console: context.console, bundleIdentifier: bundleIdentifier, askAgain: awaitLaunchable,
            waitReason: { await Self.essentialWaitReason(of: bundleIdentifier, on: connection) })
        let launchable = try await waiter.wait(for: signals)
        if let failure = launchable.installContentFailure {
            throw DebugToolError(InstallSummary.withoutContent(launchable, headline: headline, failure: failure),
                                 exitCode: .contentUnavailable)
        }
        context.console.output(InstallSummary.paragraph(for: launchable))
        return .success
    }

    /// What the app's essential downloads wait for, when one waits for a server that does not answer.
    private static func essentialWaitReason(of app: String, on connection: ServiceConnection) async -> String? {
        guard case let .status(status)? = try? await connection.send(.core(.fetchStatus)) else { return nil }
        return status.downloads.lazy
            .filter { $0.bundleIdentifier == app && $0.download.isEssential }
            .compactMap(ServerWait.reason(of:)).first
    }

    /// `Extension/Info.plist` in the current folder, when it is the extension of the app being
    /// installed (its identifier starts with the app's); otherwise the app is installed alone.
    static func defaultExtensionPlist(of appPlist: URL, in folder: URL = URL(fileURLWithPath: ".")) -> URL? {
        let candidate = folder.appending(path: "Extension/Info.plist").standardizedFileURL
        guard FileManager.default.fileExists(atPath: candidate.path) else { return nil }
        // An app Info.plist that cannot be read is the service's to explain: it gets the default.
        guard let app = bundleIdentifier(in: appPlist) else { return candidate }
        return bundleIdentifier(in: candidate)?.hasPrefix(app + ".") == true ? candidate : nil
    }

    private static func bundleIdentifier(in plist: URL) -> String? {
        guard let data = try? Data(contentsOf: plist), data.count <= 1 << 20,
              let object = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else { return nil }
        return object["CFBundleIdentifier"] as? String
    }

    /// Refuses a missing Info.plist before the service is bothered, naming the file and the option.
    private static func requireFile(
        _ file: URL, given declaration: ArgumentDefinition, usually defaultPath: String?
    ) throws(DebugToolError) {
        let option = declaration.primaryName
        let path = defaultPath ?? "its Info.plist"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            throw DebugToolError("\(file.path) does not exist. Pass \(option) PATH, or run install from the folder "
                + "that holds \(path).")
        }
        guard !isDirectory.boolValue else {
            throw DebugToolError("\(file.path) is a folder; \(option) takes the Info.plist file itself.")
        }
    }

    /// The folder of this tool's executable, where `swift build` also put the app and the extension.
    static func executablesDirectory() throws(DebugToolError) -> URL {
        // /proc/self/exe names the real file even when the tool was started through PATH or a symlink.
        let linked = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        guard let executable = linked.map({ URL(fileURLWithPath: $0) }) ?? Bundle.main.executableURL else {
            throw DebugToolError("Could not find this tool's own executable, and with it the app's. "
                + "Run backgroundassets-debug from the package's build folder (swift run backgroundassets-debug).")
        }
        return executable.resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
