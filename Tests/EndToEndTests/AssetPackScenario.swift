/*
Abstract:
One asset-pack test's world: packs made with ba-package, served by asset-server, and a managed app installed.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport

/// A device with an asset server serving a folder of packs, a service, and `asset-pack-test-app`
/// with its managed extension ready to install.
struct AssetPackScenario: Sendable {
    let scenario: Scenario
    let server: AssetServerProcess
    /// The folder the asset server serves: the archives and `manifest.json`.
    let packs: URL
    var bundle: AppBundleFixture

    static let app = "com.example.asset-pack-test"

    /// The app group container of the app.
    var container: URL { scenario.deviceRoot.appending(path: "containers/\(bundle.appGroupIdentifier)", directoryHint: .isDirectory) }
    /// Where the app group's packs are installed.
    var packsFolder: URL { container.appending(path: "Library/BackgroundAssets/AssetPacks", directoryHint: .isDirectory) }
    /// Where finished archives wait for their unpack.
    var handOverFolder: URL { container.appending(path: "Library/Caches/com.apple.BackgroundAssets", directoryHint: .isDirectory) }

    /// The finished archives waiting for their unpack.
    func finishedArchives() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: handOverFolder.path)) ?? []
        return names.filter { $0.hasPrefix("BAFile-") }.map { handOverFolder.appending(path: $0) }
    }

    /// Where the test extension records what it was asked.
    var recordsFolder: URL { container.appending(path: "Library/Application Support/asset-pack-test", directoryHint: .isDirectory) }

    /// The version of a pack readers see, from its `current` link.
    func installedVersion(of packID: String) -> Int? {
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: packsFolder.appending(path: "\(packID)/current").path)
        return target.flatMap { $0.hasPrefix("v") ? Int($0.dropFirst()) : nil }
    }

    /// A file of a pack's current version.
    func installedFile(_ packID: String, _ path: String) -> URL {
        packsFolder.appending(path: "\(packID)/current/\(path)")
    }

    /// Packages a pack version with `ba-package` from files (path to bytes), into the served folder.
    static func package(_ id: String, version: Int = 1, policy: String, files: [String: Data], into packs: URL,
                        in folder: URL) async throws {
        let source = folder.appending(path: "source-\(id)-\(version)", directoryHint: .isDirectory)
        for (path, bytes) in files {
            let file = source.appending(path: path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: file)
        }
        let selectors = files.keys.sorted().map { #"{ "file": "\#($0)" }"# }.joined(separator: ", ")
        try Data(#"{ "assetPackID": "\#(id)", "version": \#(version), "downloadPolicy": \#(policy), "fileSelectors": [\#(selectors)] }"#.utf8)
            .write(to: source.appending(path: "Manifest.json"))
        try await run("ba-package", ["Manifest.json", "-o", packs.appending(path: "\(id).aar").path, "--quiet"], in: source)
    }

    /// Writes the served folder's `manifest.json` from its archives with `ba-package download-manifest create`.
    /// - Parameters:
    ///   - packs: The folder of archives, where the manifest goes.
    ///   - downloadBaseURL: Where the archives are served instead of beside the manifest, each under its
    ///     pack's identifier; `nil` for beside it.
    static func publish(_ packs: URL, downloadBaseURL: URL? = nil) async throws {
        let archives = try FileManager.default.contentsOfDirectory(atPath: packs.path).filter { $0.hasSuffix(".aar") }.sorted()
        let base = downloadBaseURL.map { ["--download-base-url", $0.absoluteString] } ?? []
        try await run("ba-package", ["download-manifest", "create"] + archives.map { packs.appending(path: $0).path }
            + base + ["-o", packs.appending(path: "manifest.json").path, "--quiet"], in: packs)
    }

    private static func run(_ product: String, _ arguments: [String], in folder: URL) async throws {
        let process = try ChildProcess.launch(executableURL: try ProductsDirectory.executable(named: product),
                                              arguments: arguments, currentDirectory: folder)
        let status = try await process.waitForExit()
        guard status.isSuccess else { throw TestSupportError("\(product) \(arguments) ended with \(status): \(process.standardError())") }
    }

    static let essential = #"{ "essential": { "installationEventTypes": ["firstInstallation", "subsequentUpdate"] } }"#
    static let prefetch = #"{ "prefetch": { "installationEventTypes": ["firstInstallation"] } }"#
    static let onDemand = #"{ "onDemand": {} }"#

    /// Installs the app with `install --wait` (or without `--wait` when `waits` is false, returning
    /// once the install started); returns the tool's result.
    func install(extensionExecutable: String = "asset-pack-test-extension", waits: Bool = true) async throws -> CommandResult {
        var bundle = bundle
        bundle.extensionExecutable = extensionExecutable
        let plists = try bundle.write(in: scenario.folder.appending("bundle"))
        return try await scenario.runTool(["install", "--app-plist", plists.app.path, "--extension-plist", plists.extension.path]
            + (waits ? ["--wait"] : []))
    }

    /// Runs `asset-pack-test-app` as the installed app and returns what it printed, failing unless it exits 0.
    @discardableResult
    func app(_ arguments: [String], expectSuccess: Bool = true) async throws -> [String] {
        let process = try launchApp(arguments)
        let status = try await process.waitForExit(timeout: .seconds(60))
        let lines = process.standardOutput().split(separator: "\n").map(String.init)
        if expectSuccess, !status.isSuccess {
            throw TestSupportError("asset-pack-test-app \(arguments) ended with \(status): \(lines) \(process.standardError())")
        }
        return lines
    }

    /// Starts `asset-pack-test-app` as the installed app.
    func launchApp(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: "asset-pack-test-app"), arguments: arguments,
            environment: scenario.environment.merging(["BA_BUNDLE_IDENTIFIER": bundle.bundleIdentifier]) { $1 })
    }
}

/// Builds packs with `prepare` into a served folder, starts an asset server on it and a service,
/// and runs `body`; everything stops afterwards, extensions included.
func withAssetPacks<T>(
    configuration: [String: Double] = [:],
    serverArguments: [String] = [],
    isolation: isolated (any Actor)? = #isolation,
    prepare: (_ packs: URL, _ folder: URL) async throws -> Void,
    _ body: (AssetPackScenario) async throws -> T
) async throws -> T {
    let scenario = try Scenario()
    let packs = scenario.folder.appending("packs")
    try FileManager.default.createDirectory(at: packs, withIntermediateDirectories: true)
    try await prepare(packs, scenario.folder.url)
    try await AssetPackScenario.publish(packs)
    return try await withAssetServer(catalogURL: packs, arguments: ["--access-log", scenario.accessLog.path] + serverArguments) { server in
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration.merging(configuration) { $1 }) { service in
            scenario.service.process = service.process
            var bundle = AppBundleFixture(manifestURL: server.url("/manifest.json"))
            bundle.bundleIdentifier = AssetPackScenario.app
            bundle.extensionBundleIdentifier = AssetPackScenario.app + ".Extension"
            bundle.appGroupIdentifier = "group." + AssetPackScenario.app
            bundle.appExecutable = "asset-pack-test-app"
            bundle.extensionExecutable = "asset-pack-test-extension"
            bundle.hasManagedAssetPacks = true
            let packScenario = AssetPackScenario(scenario: scenario, server: server, packs: packs, bundle: bundle)
            defer { killExtensions(in: scenario.deviceRoot) }
            return try await body(packScenario)
        }
    }
}

/// Kills any test extension still running for a device root: the service launched it, not the test.
private func killExtensions(in deviceRoot: URL) {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = Int32(name),
              let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), comm.hasPrefix("asset-pack-test"),
              let environ = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")),
              String(decoding: environ, as: UTF8.self).contains(deviceRoot.path) else { continue }
        kill(pid, SIGKILL)
    }
}
