/*
Abstract:
One lifecycle test's world: asset server, service, the test app's bundle, and what the test processes recorded.
*/

import BackgroundAssetsIPC
import Foundation
import LifecycleTestKit
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The service knobs of every lifecycle test: the quick ones, and a runtime limit short enough that a
/// hung extension cannot outlast a test's deadlines.
let lifecycleConfiguration: [String: Double] = quickConfiguration.merging(["extensionRuntimeLimit": 20]) { $1 }

/// A lifecycle scenario: a running asset server and service, and the test app ready to install.
struct LifecycleScenario: Sendable {
    /// The device root, access log and private folder.
    let scenario: Scenario
    /// The asset server the app's `BAManifestURL` points at.
    let server: AssetServerProcess
    /// The catalog's sessions, in manifest order.
    let sessions: [CatalogSession]
    /// The Info.plists `install` is given; change it before installing.
    var bundle: AppBundleFixture

    init(scenario: Scenario, server: AssetServerProcess) throws {
        self.scenario = scenario
        self.server = server
        sessions = try CatalogSession.all(in: server.catalogURL)
        bundle = AppBundleFixture(manifestURL: server.url("/manifest.json"))
    }

    /// The app's `BAManifestURL`.
    var manifestURL: URL { bundle.manifestURL }
    /// The sessions the manifest marks essential.
    var essentialSessions: [CatalogSession] { sessions.filter(\.essential) }
    /// The sessions the manifest does not mark essential.
    var otherSessions: [CatalogSession] { sessions.filter { !$0.essential } }

    /// The app group container the app and the extension share.
    var container: URL {
        scenario.deviceRoot.appendingPathComponent("containers/\(bundle.appGroupIdentifier)", isDirectory: true)
    }

    /// Where the test processes write their records and move finished files.
    var recordsFolder: URL { LifecycleTestContainer.recordsFolder(in: container) }

    /// The folder finished files are moved into, named by download identifier.
    var filesFolder: URL { recordsFolder.appendingPathComponent(LifecycleTestContainer.filesFolderName) }

    /// Instructions that return the manifest's sessions and do nothing else; adjust and ``write(_:)`` them.
    func behaviour() -> LifecycleBehaviour { LifecycleBehaviour(manifestURL: manifestURL) }

    /// Writes the extension's instructions into the container, where every launch of it reads them.
    func write(_ behaviour: LifecycleBehaviour) throws {
        let file = container.appendingPathComponent(LifecycleBehaviour.path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(behaviour).write(to: file)
    }

    // MARK: - Installing and launching

    /// The arguments of `backgroundassets-debug install`, after writing the Info.plists.
    func installArguments(version: String? = nil, wait: Bool = true) throws -> [String] {
        let plists = try bundle.write(in: scenario.folder.appending("bundle-\(version ?? bundle.version)"))
        return ["install", "--app-plist", plists.app.path, "--extension-plist", plists.extension.path]
            + (version.map { ["--version", $0] } ?? []) + (wait ? ["--wait"] : [])
    }

    /// Runs `backgroundassets-debug install` to completion.
    func install(version: String? = nil, wait: Bool = true) async throws -> CommandResult {
        try await scenario.runTool(installArguments(version: version, wait: wait))
    }

    /// Starts `backgroundassets-debug install` without waiting for it.
    func launchInstall(version: String? = nil, wait: Bool = true) throws -> ChildProcess {
        try scenario.launchTool(installArguments(version: version, wait: wait))
    }

    /// Installs the app and waits until it is launchable, failing with the tool's stderr otherwise.
    func installAndWait() async throws {
        let result = try await install()
        guard result.status.isSuccess else {
            throw TestSupportError("install --wait ended with \(result.status): \(result.standardError)")
        }
    }

    /// Starts `lifecycle-test-app` as the installed app, with its bundle identifier in the environment.
    func launchApp(_ arguments: [String] = []) throws -> ChildProcess {
        try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: bundle.appExecutable), arguments: arguments,
            environment: scenario.environment.merging(["BA_BUNDLE_IDENTIFIER": bundle.bundleIdentifier]) { $1 })
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

    /// What the extension recorded so far.
    func extensionCalls() -> [LifecycleCallRecord] {
        LifecycleCallRecord.all(in: recordsFolder.appendingPathComponent(LifecycleTestContainer.extensionLogName))
    }

    /// What the app recorded so far.
    func appCalls() -> [LifecycleCallRecord] {
        LifecycleCallRecord.all(in: recordsFolder.appendingPathComponent(LifecycleTestContainer.appLogName))
    }

    /// Waits until the extension's records satisfy a condition, and returns them.
    func waitForExtensionCalls(
        _ description: String, timeout: Duration = .seconds(60),
        until condition: ([LifecycleCallRecord]) -> Bool
    ) async throws -> [LifecycleCallRecord] {
        try await poll(timeout: timeout, interval: .milliseconds(20), "the extension to record \(description)") {
            let calls = extensionCalls()
            return condition(calls) ? calls : nil
        }
    }

    /// The installed app as `status --json` shows it, or nil while the service does not list it.
    func appStatus() async throws -> [String: Any]? {
        let result = try await tool(["status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let apps = object?["apps"] as? [[String: Any]] ?? []
        return apps.first { $0["bundleIdentifier"] as? String == bundle.bundleIdentifier }
    }

    /// Waits until the app's status satisfies a condition, and returns it.
    func waitForAppStatus(
        _ description: String, timeout: Duration = .seconds(60), until condition: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        try await poll(timeout: timeout, interval: .milliseconds(50), "the app's status to show \(description)") {
            guard let status = try await appStatus(), condition(status) else { return nil }
            return status
        }
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
}

/// Starts an asset server with a small generated catalog and a service, runs `body` with a lifecycle
/// scenario, and stops both afterwards (and any extension the service launched, with the service).
/// - Parameters:
///   - sessions: How many sessions the catalog has; the first two are essential.
///   - sessionSize: The typical size of a session file.
///   - serverArguments: Fault flags for the asset server, such as `["--throttle", "65536"]`.
///   - configuration: Service knobs added to ``lifecycleConfiguration``.
///   - body: The test.
func withLifecycle<T>(
    sessions: Int = 4,
    sessionSize: Int = 16_384,
    serverArguments: [String] = [],
    configuration: [String: Double] = [:],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (LifecycleScenario) async throws -> T
) async throws -> T {
    try await withDevice(
        sessions: sessions, sessionSize: sessionSize, serverArguments: serverArguments,
        configuration: lifecycleConfiguration.merging(configuration) { $1 },
        cleanUp: { scenario, server in (try? LifecycleScenario(scenario: scenario, server: server))?.killRecordedProcesses() }
    ) { scenario, server in
        try await body(try LifecycleScenario(scenario: scenario, server: server))
    }
}

extension LifecycleScenario {
    /// Sends SIGKILL to every test app or extension process that recorded something and still runs.
    ///
    /// The service launches the extension, so it is not the test's child; an extension a test left
    /// sleeping must not outlive the test.
    func killRecordedProcesses() {
        for pid in Set((extensionCalls() + appCalls()).map(\.pid)) where isProcessAlive(pid) {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if name.hasPrefix("lifecycle-test-") { kill(pid, SIGKILL) }
        }
    }
}

/// Watches for something that must not happen, for a whole window: a negative claim needs one.
/// - Parameters:
///   - duration: How long to watch.
///   - happened: Whether the forbidden thing has happened; checked every 100 ms.
/// - Returns: `true` as soon as it happened, `false` when the window passed without it.
func watch(for duration: Duration, whether happened: () -> Bool) async throws -> Bool {
    do {
        try await poll(until: happened, timeout: duration, interval: .milliseconds(100))
        return true
    } catch is TestSupportError {
        // The window passed without it: what the caller hopes for.
        return false
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A nested value of a decoded JSON object, such as `["progress", "essentialFinished"]`.
    subscript(path keys: String...) -> Any? {
        var value: Any? = self
        for key in keys { value = (value as? [String: Any])?[key] }
        return value
    }
}
