/*
Abstract:
The WWDC Sessions sample on a test device: asset server, service, the real app and extension, and their traces.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The sample's scenarios, end to end: `backgroundassets-debug install` installs the app (`wwdc-sessions`
/// as shipped), the service launches its extension, and the app runs with `--until-complete`. Every
/// name of the app comes from its Info.plists (``SampleIdentity``).
///
/// The nested suites (one file each, `Sample*Tests.swift`) run one test at a time: several throttle
/// the asset server so that downloads are in flight at a chosen moment, and must not compete for the
/// machine's cores.
@Suite("WWDC Sessions sample, end to end", .serialized, .timeLimit(.minutes(2)))
struct SampleTests {}

/// The service knobs of every sample test: the quick ones, and a runtime limit short enough that a
/// hung extension cannot outlast a test's deadlines.
let sampleConfiguration: [String: Double] = quickConfiguration.merging(["extensionRuntimeLimit": 20]) { $1 }

/// One session as `wwdc-sessions list --json` prints it.
struct ListedSession: Decodable, Sendable, Equatable {
    var id: String
    var essential: Bool
    var fileSize: Int
    /// `remote` or `downloaded`.
    var state: String
    var path: String
}

/// The sample app installed on a test's device root, with its asset server.
struct SampleDevice: Sendable {
    /// The app's `CFBundleIdentifier`, as App/Info.plist declares it.
    static var bundleIdentifier: String { SampleIdentity.sample.bundleIdentifier }
    /// The app group App/Info.plist and Extension/Info.plist share.
    static var appGroupIdentifier: String { SampleIdentity.sample.appGroupIdentifier }
    /// The app's executable, as App/Info.plist names it.
    static var appExecutable: String { SampleIdentity.sample.appExecutable }
    /// The extension's executable, as Extension/Info.plist names it.
    static var extensionExecutable: String { SampleIdentity.sample.extensionExecutable }
    /// The repository's root, where App/Info.plist and Extension/Info.plist are.
    static var repositoryRoot: URL { SampleIdentity.repositoryRoot }

    /// The device root, access log and private folder.
    let scenario: Scenario
    /// The asset server the app's `BAManifestURL` points at.
    let server: AssetServerProcess

    /// The app's `BAManifestURL`: this test's server.
    var manifestURL: URL { server.url("/manifest.json") }

    /// The app group container the app and the extension share.
    var container: URL {
        scenario.deviceRoot.appendingPathComponent("containers/\(Self.appGroupIdentifier)", isDirectory: true)
    }

    /// `Library/Caches/` of the container: the manifest, the sessions, and the two hand-over folders.
    var caches: URL { container.appendingPathComponent("Library/Caches", isDirectory: true) }
    /// Where the app and the extension keep the session videos.
    var sessionsFolder: URL { caches.appendingPathComponent("Sessions", isDirectory: true) }
    /// Where the service hands finished downloads over (`BAFile-<uuid>.tmp`).
    var handOverFolder: URL { caches.appendingPathComponent("com.apple.BackgroundAssets", isDirectory: true) }
    /// Where the extension parks a finished file while it waits for exclusive control.
    var temporaryFolder: URL { caches.appendingPathComponent("Temporary", isDirectory: true) }

    /// The catalog's sessions, in manifest order, as the server's manifest.json lists them now.
    func catalog() throws -> [CatalogSession] {
        try CatalogSession.all(in: server.catalogURL)
    }

    /// Installs the app, runs it until every session is on the device, and returns the catalog it verified.
    func installAndRunToCompletion() async throws -> [CatalogSession] {
        try await install()
        let app = try await runApp()
        #expect(app.status == .exited(0), "\(app.standardOutput)\n\(app.standardError)")
        let sessions = try catalog()
        try await waitUntilVerified(sessions)
        return sessions
    }

    /// Where a session's video belongs in the app group: its identifier and its URL's extension.
    func fileURL(of session: CatalogSession) -> URL {
        let pathExtension = URL(fileURLWithPath: session.path).pathExtension
        let name = pathExtension.isEmpty ? session.id : "\(session.id).\(pathExtension)"
        return sessionsFolder.appendingPathComponent(name)
    }

    // MARK: - Installing and launching

    /// Writes a copy of App/Info.plist whose `BAManifestURL` names this test's server, as the demo does.
    /// - Parameter manifest: The `BAManifestURL` to write, when not the server's own (a relay in front of it).
    /// - Returns: The copy.
    func appPlist(manifest: URL? = nil) throws -> URL {
        try infoPlistCopy(
            of: "App/Info.plist", setting: "BAManifestURL", to: manifest ?? manifestURL, at: scenario.folder.appending("App-Info.plist"))
    }

    /// The arguments of `backgroundassets-debug install --wait` with the patched App/Info.plist.
    /// - Parameter manifest: The `BAManifestURL` to install with, when not the server's own.
    func installArguments(manifest: URL? = nil) throws -> [String] {
        let extensionPlist = Self.repositoryRoot.appendingPathComponent("Extension/Info.plist")
        return ["install", "--app-plist", try appPlist(manifest: manifest).path, "--extension-plist", extensionPlist.path, "--wait"]
    }

    /// Installs the app and waits until it is launchable, failing with the tool's stderr otherwise.
    /// - Parameter manifest: The `BAManifestURL` to install with, when not the server's own: the
    ///   extension's downloads then go where it points, while the app's runs fetch the manifest
    ///   from the server (``appArguments(timeout:)``).
    func install(manifest: URL? = nil) async throws {
        let result = try await scenario.runTool(try installArguments(manifest: manifest))
        guard result.status.isSuccess else {
            throw TestSupportError("install --wait ended with \(result.status): \(result.standardError)")
        }
    }

    /// The arguments of one run of the app that ends once every session is settled.
    func appArguments(timeout: Int) -> [String] {
        ["--until-complete", "--timeout", String(timeout), "--manifest-url", manifestURL.absoluteString, "--plain"]
    }

    /// Runs `wwdc-sessions --until-complete` to its end.
    /// - Parameter timeout: The app's own `--timeout`; the process is killed a little after it.
    func runApp(timeout: Int = 30) async throws -> CommandResult {
        try await runCommand(
            try ProductsDirectory.executable(named: Self.appExecutable).path, arguments: appArguments(timeout: timeout),
            environment: scenario.environment, timeout: .seconds(timeout + 15))
    }

    /// Runs `backgroundassets-debug` with arguments and fails unless it exits 0.
    @discardableResult
    func tool(_ arguments: [String]) async throws -> CommandResult {
        let result = try await scenario.runTool(arguments)
        guard result.status.isSuccess else {
            throw TestSupportError("backgroundassets-debug \(arguments.joined(separator: " ")) ended with "
                + "\(result.status): \(result.standardError)")
        }
        return result
    }

    // MARK: - What happened

    /// The sessions as `wwdc-sessions list --json` reports them; it reads the app group only, and is no launch.
    func listedSessions() async throws -> [ListedSession] {
        let result = try await runCommand(
            try ProductsDirectory.executable(named: Self.appExecutable).path, arguments: ["list", "--json"],
            environment: scenario.environment)
        guard result.status.isSuccess else {
            throw TestSupportError("\(Self.appExecutable) list --json ended with \(result.status): \(result.standardError)")
        }
        return try JSONDecoder().decode([ListedSession].self, from: Data(result.standardOutput.utf8))
    }

    /// The SHA-256 of every file in the sessions folder, by file name.
    func sessionFileDigests() async throws -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sessionsFolder.path)) ?? []
        guard !names.isEmpty else { return [:] }
        let files = names.sorted().map { sessionsFolder.appendingPathComponent($0).path }
        let result = try await runCommand("sha256sum", arguments: files)
        var digests: [String: String] = [:]
        for line in result.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            // `sha256sum` prints `DIGEST  PATH`, or `DIGEST *PATH` in binary mode.
            let path = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["*"])
            digests[URL(fileURLWithPath: path).lastPathComponent] = String(parts[0])
        }
        return digests
    }

    /// The sessions whose file is in place with the manifest's SHA-256.
    func verifiedSessions(of sessions: [CatalogSession]) async throws -> Set<String> {
        let digests = try await sessionFileDigests()
        return Set(sessions.filter { digests[fileURL(of: $0).lastPathComponent] == $0.sha256 }.map(\.id))
    }

    /// Waits until every one of `sessions` is in place and verified.
    func waitUntilVerified(_ sessions: [CatalogSession], timeout: Duration = .seconds(30)) async throws {
        let wanted = Set(sessions.map(\.id))
        try await poll(until: { try await verifiedSessions(of: sessions) == wanted }, timeout: timeout,
                       interval: .milliseconds(50), "\(wanted.sorted()) to be in place and verified")
    }

    /// The names of the files in a folder, or none when it does not exist.
    func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The service's trace so far.
    func trace() -> [TraceEntry] {
        let file = scenario.deviceRoot.appendingPathComponent("system/trace.jsonl")
        return TraceEntry.entries(in: (try? Data(contentsOf: file)) ?? Data())
    }

    /// The asset server's access log, in the order responses ended.
    func accessLog() throws -> [AccessLogEntry] {
        try AccessLogEntry.entries(in: scenario.accessLog)
    }

    /// The service's downloads as `status --json` lists them, by download identifier.
    func serviceDownloads() async throws -> [String: ServiceDownload] {
        var downloads: [String: ServiceDownload] = [:]
        for download in try await statusDownloads(scenario) {
            guard let descriptor = download["download"] as? [String: Any],
                  let identifier = descriptor["identifier"] as? String,
                  let written = (download["bytesWritten"] as? NSNumber)?.int64Value
            else { continue }
            downloads[identifier] = ServiceDownload(
                written: written, isEssential: descriptor["isEssential"] as? Bool ?? false,
                isForeground: download["isForeground"] as? Bool ?? false)
        }
        return downloads
    }
}

/// One download as the service's status lists it.
struct ServiceDownload: Sendable, Equatable {
    /// The bytes written so far.
    var written: Int64
    /// Whether it is an essential download.
    var isEssential: Bool
    /// Whether it runs in the foreground, for the app.
    var isForeground: Bool
}

extension Sequence<TraceEntry> {
    /// Whether the app ever connected to the service or was recorded as launched.
    var showsAppLaunch: Bool {
        contains { $0.event == "appLaunched" || ($0.from == "app" && $0.event == "connected") }
    }

    /// The identifiers of downloads whose finished file the service sent to the extension.
    var finishesHandledByExtension: [String] {
        filter { $0.to == "extension" && $0.event == "backgroundDownload(_:finishedWithFileURL:)" }
            .compactMap(\.download)
    }

    /// The identifiers of downloads whose finished file the service sent to the app's delegate.
    var finishesHandledByApp: [String] {
        filter { $0.event == "finishedWithFileURL" && $0.to.split(separator: "+").contains("app") }
            .compactMap(\.download)
    }
}

/// Starts an asset server with a small generated catalog and a service, runs `body` with the sample
/// app ready to install, and afterwards stops both and any extension the service launched.
/// - Parameters:
///   - sessions: How many sessions the catalog has; the first two are essential.
///   - sessionSize: The typical size of a session file.
///   - serverArguments: Fault flags for the asset server, such as `["--throttle", "65536"]`.
///   - configuration: Service knobs added to ``sampleConfiguration``.
///   - trustsClientClaims: Whether the service takes every hello as claimed, for a test program
///     that speaks as the installed app without being its executable.
///   - body: The test.
func withSampleDevice<T>(
    sessions: Int = 4,
    sessionSize: Int = 16_384,
    serverArguments: [String] = [],
    configuration: [String: Double] = [:],
    trustsClientClaims: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (SampleDevice) async throws -> T
) async throws -> T {
    try await withDevice(
        sessions: sessions, sessionSize: sessionSize, serverArguments: serverArguments,
        configuration: sampleConfiguration.merging(configuration) { $1 }, trustsClientClaims: trustsClientClaims,
        cleanUp: { scenario, _ in killExtensions(of: scenario.deviceRoot) }
    ) { scenario, server in
        try await body(SampleDevice(scenario: scenario, server: server))
    }
}

/// Sends SIGKILL to every extension of the sample (Extension/Info.plist's executable) the service of this device root launched.
///
/// The service launches the extension, so it is not the test's child; once the service is gone, an
/// extension still at work must not outlive the test. Only processes whose environment names this
/// device root are touched.
func killExtensions(of deviceRoot: URL) {
    let marker = Array("\(TemporaryDeviceRoot.environmentKey)=\(deviceRoot.path)".utf8)
    let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
    for pid in pids {
        // The kernel keeps the first 15 characters of a command's name.
        guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
              name.trimmingCharacters(in: .whitespacesAndNewlines) == String(SampleDevice.extensionExecutable.prefix(15)),
              let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
        else { continue }
        let variables = environment.split(separator: 0).map(Array.init)
        if variables.contains(marker) { kill(pid, SIGKILL) }
    }
}
