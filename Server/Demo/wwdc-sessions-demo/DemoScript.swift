/*
Abstract:
The demo's steps, in order, each with the paragraph --step shows before it runs.
*/

import AssetServer
import BackgroundAssetsIPC
import Foundation
import Synchronization

/// The whole demo: start the CDN, install the app, launch it, look back.
struct DemoScript {
    let options: DemoOptions
    let processes: DemoProcesses
    let narrator: Narrator
    let paths: DevicePaths

    /// App/Info.plist, where the demo reads everything about the app.
    private var appInfo: SampleAppInfo { SampleAppInfo(repository: options.repository) }

    /// The app's `CFBundleExecutable`: the product the demo runs and `install` copies into the bundle.
    private func readAppExecutable() throws -> String {
        guard let name = appInfo.executable else {
            throw DemoError("App/Info.plist has no CFBundleExecutable; the demo runs the app by that name.")
        }
        return name
    }

    func run() async throws {
        // The timeline at the end draws this run: the trace from here on.
        let started = Date.now
        let appExecutable = try readAppExecutable()
        // The live view is a window on the run, not a step of it: the demo goes on without one.
        let liveView: Process?
        do {
            let view = try LiveViewLauncher.start(since: started, processes: processes)
            narrator.note("Watch it live: \(view.url)")
            liveView = view.process
        } catch {
            narrator.note("The live timeline did not start (\(error)); the demo goes on without it.")
            liveView = nil
        }
        narrator.step(1, "Start the asset server", """
            The asset server plays the content delivery network: it serves manifest.json and the session \
            videos it lists, with byte ranges so interrupted downloads resume. An asset server already \
            listening on the port is reused; otherwise one starts with a generated catalog in .catalog/.
            """)
        let server = try AssetServerLauncher.prepare(
            port: options.port, catalog: options.catalog, https: options.https, tlsDirectory: options.tlsDirectory,
            processes: processes)
        let manifestURL = server.url.appending(path: "manifest.json")
        processes.assetServerPort.store(server.url.port ?? 0, ordering: .releasing)
        narrator.note("\(server.started ? "Started" : "Reusing") the asset server at \(server.url.absoluteString).")
        var number = 2
        if let caCertificate = server.caCertificate {
            narrator.step(number, "Trust the local CA on the device", """
                The asset server made a local CA in .tls/ and a certificate for localhost signed by it. A real \
                device trusts such a CA once a profile with it is installed; here backgroundassets-debug trust \
                add puts it in the device root, where the service, the app and the extension trust it. The \
                machine's own trust store is not touched.
                """)
            try await expectSuccess("backgroundassets-debug", ["trust", "add", caCertificate])
            number += 1
        }

        narrator.step(number, "Install the app", """
            backgroundassets-debug install plays the App Store. The system service, backgroundassetsd, \
            checks the Background Assets keys of App/Info.plist, fetches the manifest at BAManifestURL, and \
            launches the app's extension, whose downloads(for:manifestURL:extensionInfo:) \
            returns a download for each session: essential ones for the sessions the manifest marks \
            essential. The app cannot be opened until those finish; the bar shows the install's progress.
            """)
        try await uninstallPreviousCopy()
        let appPlist = try appPlist(pointingAt: manifestURL)
        try await expectSuccess("backgroundassets-debug", [
            "install", "--app-plist", appPlist.path, "--extension-plist", options.repository.appending(path: "Extension/Info.plist").path,
            "--wait",
        ])

        number += 1
        narrator.step(number, "Launch the app", """
            Opening the app runs its launch gate, then SessionManager: inside withExclusiveControl it \
            promotes every session still downloading in the background to the foreground (you see \
            downloadDidPause, then the download carries on from the same byte, faster), and starts the \
            sessions nobody scheduled. The app exits once every session is on the device and its SHA-256 \
            matches the manifest.
            """)
        var appArguments = ["--until-complete", "--timeout", String(options.timeout), "--manifest-url", manifestURL.absoluteString]
        if !narrator.isInteractive { appArguments.append("--plain") }
        try await expectSuccess(appExecutable, appArguments)

        number += 1
        narrator.step(number, "Look back", """
            Every process told the service what it did; backgroundassets-debug trace --svg draws it as a \
            timeline (a lane per download with its bytes over time, the install, the extension and the app \
            above), trace --mermaid as a sequence diagram, and status shows the app and its downloads.
            """)
        try await processes.run(appExecutable, ["list"])
        let timeline = paths.root.appending(path: "demo/timeline.svg")
        try FileManager.default.createDirectory(at: timeline.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await expectSuccess("backgroundassets-debug", [
            "trace", "--svg", timeline.path, "--since", ISO8601Timestamp.string(for: started) + "Z",
        ])
        if let liveView { processes.stop(liveView) }
        // The demo stops the server it started when it ends, and each hint below needs one.
        let restart = server.started
            ? "start the asset server again in another terminal with `swift run \(restartCommand(for: server.url))`, then "
            : ""
        narrator.note("""
            The trace is in \(paths.traceFile.path): `swift run backgroundassets-debug trace --svg FILE` draws any part \
            of it as a timeline like this one, and `trace --mermaid` as a sequence diagram.
            Try next: \(restart)send a periodic check with `swift run backgroundassets-debug simulate --periodic-check`, \
            empty the caches with `swift run backgroundassets-debug purge`, and launch the app again with \
            `swift run \(appExecutable)`.
            """)
    }

    /// The `asset-server` command that serves what this run served, where the installed app looks for it.
    private func restartCommand(for url: URL) -> String {
        options.assetServerCommand(port: url.port)
    }

    /// Removes an earlier demo's install, so each run starts from a fresh install.
    private func uninstallPreviousCopy() async throws {
        guard let app = appInfo.bundleIdentifier, let record = paths.appRecordFile(forBundleIdentifier: app),
            FileManager.default.fileExists(atPath: record.path)
        else { return }
        narrator.note("Removing the copy installed by an earlier run.")
        try await expectSuccess("backgroundassets-debug", ["uninstall", "--app-bundle-id", app])
    }

    /// App/Info.plist, or a copy under the device root whose BAManifestURL names this run's server.
    private func appPlist(pointingAt manifestURL: URL) throws -> URL {
        let original = options.repository.appending(path: "App/Info.plist")
        guard let data = FileManager.default.contents(atPath: original.path),
            var plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else {
            throw DemoError("\(original.path) cannot be read. Run the demo from the repository's root folder.")
        }
        if plist["BAManifestURL"] as? String == manifestURL.absoluteString { return original }
        plist["BAManifestURL"] = manifestURL.absoluteString
        let copy = paths.root.appending(path: "demo/App-Info.plist")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: copy)
        return copy
    }

    private func expectSuccess(_ name: String, _ arguments: [String]) async throws {
        let exit = try await processes.run(name, arguments)
        if !exit.bySignal, exit.status == 0 { return }
        let ending = exit.bySignal ? "was ended by signal \(exit.status)" : "exited with status \(exit.status)"
        throw DemoError("\(name) \(arguments.first ?? "") \(ending); its messages above say why.", isInterruption: exit.isInterruption)
    }
}
