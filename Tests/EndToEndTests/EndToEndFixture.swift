/*
Abstract:
What every end-to-end test shares: a device root, the debug tool as a client process, the catalog and the access log.
*/

import Foundation
import SessionKit
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The knobs every end-to-end service runs with: short delays so failures and retries take milliseconds.
let quickConfiguration: [String: Double] = [
    "retryInitialDelay": 0.05, "retryMaxDelay": 0.5, "connectivityProbeInterval": 0.2,
    "checkpointInterval": 0.2, "checkpointBytes": 65_536, "stallTimeout": 5, "idleExitAfter": 30,
    "backgroundBandwidthLimit": 0,
]

/// One scenario's world: a device root in a private folder, and the access log of its asset server.
struct Scenario: Sendable {
    /// The private folder holding everything; nothing of the test is written outside it.
    let folder: TemporaryDirectory
    /// The device root, nested two levels down so an escaping `../../x` would still land in `folder`.
    let deviceRoot: URL
    /// The asset server's access log.
    let accessLog: URL
    /// Where downloads are written.
    let outputFolder: URL
    /// The service ``withDevice`` started, for a test that kills it on purpose.
    let service = ServiceSlot()

    /// - Parameter deviceRoot: Where the device root goes, such as on a small file system; by
    ///   default inside the scenario's folder.
    init(deviceRoot: URL? = nil) throws {
        folder = try TemporaryDirectory(prefix: "e2e")
        self.deviceRoot = deviceRoot ?? folder.appending("a/b/device")
        accessLog = folder.appending("access.log")
        outputFolder = folder.appending("out")
        for url in [self.deviceRoot, outputFolder] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
    }

    /// The environment that points a process at this scenario's device root.
    var environment: [String: String] { ServiceProcess.environment(for: deviceRoot) }

    /// Starts `backgroundassets-debug` with arguments; the caller waits for it or kills it.
    func launchTool(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: "backgroundassets-debug"),
            arguments: arguments, environment: environment)
    }

    /// Runs `backgroundassets-debug` to completion.
    func runTool(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> CommandResult {
        try await runCommand(
            try ProductsDirectory.executable(named: "backgroundassets-debug").path,
            arguments: arguments, environment: environment, timeout: timeout)
    }

    /// The access log's entries for one path, in order.
    func accessEntries(for path: String) throws -> [AccessLogEntry] {
        try AccessLogEntry.entries(in: accessLog).filter { $0.path == path }
    }
}

/// One file of the generated catalog, as its manifest lists it.
struct CatalogFile: Sendable {
    var path: String
    var size: Int
    var sha256: String
    var file: URL

    /// The files listed in a catalog folder's manifest.json, in order, read with SessionKit's `Manifest`.
    static func all(in catalog: URL) throws -> [CatalogFile] {
        try Manifest.load(from: catalog.appendingPathComponent("manifest.json")).sessions.map { session in
            // Without a base URL a relative session URL stays relative: the path inside the catalog.
            let path = session.url.relativeString
            return CatalogFile(path: "/" + path, size: session.fileSize, sha256: session.sha256,
                               file: catalog.appendingPathComponent(path))
        }
    }
}

/// The SHA-256 of a file, in lowercase hex, from `sha256sum`.
func sha256(of file: URL) async throws -> String {
    let result = try await runCommand("sha256sum", arguments: [file.path])
    return String(result.standardOutput.prefix(64))
}

/// The bytes the service holds for a download, from `status --json`, or nil when it is not listed.
func statusDownloads(_ scenario: Scenario) async throws -> [[String: Any]] {
    let result = try await scenario.runTool(["status", "--json"])
    guard result.status.isSuccess else {
        throw TestSupportError("status --json failed with \(result.status): \(result.standardError)")
    }
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    return object?["downloads"] as? [[String: Any]] ?? []
}

/// Starts an asset server with a small generated catalog (access-logged into the scenario) and a
/// service in a fresh scenario's device root, runs `body`, then `cleanUp` (whether `body` returned
/// or threw), then stops both.
/// - Parameters:
///   - sessions: How many sessions the catalog has; the first two are essential.
///   - sessionSize: The typical size of a session file.
///   - serverArguments: Fault flags for the asset server, such as `["--throttle", "65536"]`.
///   - configuration: The service's knobs.
///   - trustsClientClaims: Whether the service takes every hello as claimed, for a test program
///     that speaks as the installed app without being its executable.
///   - cleanUp: Stops what the service started and the test cannot own, such as extensions.
///   - body: The test.
func withDevice<T>(
    sessions: Int, sessionSize: Int, serverArguments: [String], configuration: [String: Double],
    trustsClientClaims: Bool = false,
    cleanUp: @escaping (Scenario, AssetServerProcess) -> Void,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Scenario, AssetServerProcess) async throws -> T
) async throws -> T {
    let scenario = try Scenario()
    return try await withAssetServer(
        sessions: sessions, sessionSize: sessionSize,
        arguments: ["--access-log", scenario.accessLog.path] + serverArguments
    ) { server in
        try await withService(
            deviceRoot: scenario.deviceRoot, configuration: configuration, trustsClientClaims: trustsClientClaims
        ) { service in
            scenario.service.process = service.process
            defer { cleanUp(scenario, server) }
            return try await body(scenario, server)
        }
    }
}

/// Holds the service a scenario started, once it has started.
final class ServiceSlot: Sendable {
    private let slot = Mutex<ChildProcess?>(nil)

    /// The service's process, or `nil` before it started.
    var process: ChildProcess? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }

    /// Kills the service as a crash would (SIGKILL) and waits for it to end; the next client starts it again.
    func kill() async throws {
        guard let process else { throw TestSupportError("The scenario's service has not started.") }
        try process.signal(SIGKILL)
        try await process.waitForExit()
    }
}
