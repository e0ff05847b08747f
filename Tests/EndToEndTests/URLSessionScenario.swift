/*
Abstract:
The world of a background-session test: the lifecycle scenario with url-session-test-app installed, and what it recorded.
*/

import BackgroundAssetsIPC
import Foundation
import LifecycleTestKit
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension LifecycleScenario {
    /// The session identifier the test app uses unless told otherwise.
    static let urlSession = "com.example.lifecycle-test.downloads"
    /// The game archive of the generated catalog, three session sizes long.
    static let archivePath = "/game/GameData-v1.aar"

    /// What the test app recorded so far.
    func sessionRecords() -> [URLSessionTestRecord] {
        let text = (try? String(contentsOf: container.appending(path: "url-session-test-app.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(URLSessionTestRecord.self, from: Data($0.utf8)) }
    }

    /// Waits until the test app has recorded an event that matches, and returns it.
    @discardableResult
    func waitForSessionRecord(
        _ description: String, timeout: Duration = .seconds(60), where matches: @escaping (URLSessionTestRecord) -> Bool
    ) async throws -> URLSessionTestRecord {
        do {
            return try await poll(timeout: timeout, interval: .milliseconds(20), "the test app to record \(description)") {
                sessionRecords().first(where: matches)
            }
        } catch {
            // What the service did and what the app and its background launches logged, for a failure
            // seen only on a loaded machine.
            let trace = trace().filter { $0.event != "downloadProgress" }
                .map { "\($0.event) \($0.download ?? "") \($0.detail ?? "")" }
            let log = (try? String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)) ?? ""
            throw TestSupportError("\(error)\ntrace:\n\(trace.joined(separator: "\n"))\nrecords: \(sessionRecords().map(\.event))"
                + "\nlast lines of the device log:\n\(log.split(separator: "\n").suffix(30).joined(separator: "\n"))")
        }
    }

    /// Starts `url-session-test-app` as the installed app.
    func launchSessionApp(_ arguments: [String]) throws -> ChildProcess {
        var scenario = self
        scenario.bundle.appExecutable = "url-session-test-app"
        return try scenario.launchApp(arguments)
    }

    /// Kills every test app process that recorded something and still runs.
    func killSessionApps() {
        for pid in Set(sessionRecords().map(\.pid)) where isProcessAlive(pid) { kill(pid, SIGKILL) }
    }
}

/// Installs `url-session-test-app` (with the lifecycle test extension, which returns nothing) in a
/// device whose catalog has the game archive, runs `body`, then kills any app process the test left.
func withSessionApp(
    serverArguments: [String] = [], sessionSize: Int = 65_536, install: Bool = true, isolation: isolated (any Actor)? = #isolation,
    _ body: (LifecycleScenario) async throws -> Void
) async throws {
    try await withLifecycle(sessions: 2, sessionSize: sessionSize, serverArguments: serverArguments) { original in
        var scenario = original
        scenario.bundle.appExecutable = "url-session-test-app"
        var behaviour = scenario.behaviour()
        behaviour.returnFor = []
        try scenario.write(behaviour)
        defer { scenario.killSessionApps() }
        if install { try await scenario.installAndWait() }
        try await body(scenario)
    }
}
