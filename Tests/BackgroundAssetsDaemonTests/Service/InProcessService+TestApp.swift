/*
Abstract:
Installing the lifecycle test app on an in-process service, and reading what the service traced.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension InProcessService {
    /// An app whose extension is `lifecycle-test-extension`, installed on this service.
    struct TestApp {
        let fixture: AppBundleFixture
        /// The server of its manifest, which lists no sessions.
        let manifestServer: ScriptedHTTPServer

        var bundleIdentifier: String { fixture.bundleIdentifier }
    }

    /// Installs `lifecycle-test-app` with its extension told to behave as `behaviour` says.
    ///
    /// - Parameters:
    ///   - behaviour: The keys of LifecycleTestKit's `LifecycleBehaviour` (such as
    ///     `["sleepSeconds": 3600, "misbehaveFor": [1]]`), written where every launch of the extension
    ///     reads them. The extension is a real process: it runs in real time, while the service's
    ///     limits on it run on the clock.
    ///   - bundle: Changes to the Info.plists, such as the permitted task identifiers.
    /// - Returns: The app; stop its `manifestServer` when the test ends.
    func installTestApp(
        behaviour: [String: any Sendable] = [:], bundle: (inout AppBundleFixture) -> Void = { _ in }
    ) async throws -> TestApp {
        let body = Array(#"{"version":1,"sessions":[]}"#.utf8)
        let server = try ScriptedHTTPServer { _, _ in .response("200 OK", ["Content-Type: application/json"], body: body) }
        var fixture = AppBundleFixture(manifestURL: server.url("/manifest.json"))
        bundle(&fixture)
        if let container = paths.container(forAppGroup: fixture.appGroupIdentifier) {
            // LifecycleBehaviour.path, which this target does not link.
            let file = container.appending(path: "Library/Preferences/lifecycle-test.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: behaviour).write(to: file)
        }
        let plists = try fixture.write(in: root.url.appending(path: "bundle"))
        let tool = try await client("com.example.backgroundassets-debug", role: .tool)
        let request = InstallRequest(
            appPlistPath: plists.app.path, extensionPlistPath: plists.extension.path,
            executablesDirectory: ProductsDirectory.url().path)
        guard case .app = try await tool.ask(.tool(.install(request))) else {
            server.stop()
            throw TestSupportError("The service refused to install \(fixture.bundleIdentifier).")
        }
        return TestApp(fixture: fixture, manifestServer: server)
    }

    /// What the service traced so far.
    var trace: [TraceEntry] {
        TraceEntry.entries(in: (try? Data(contentsOf: paths.traceFile)) ?? Data())
    }

    /// Waits (in real time) until the trace has an entry that matches, and returns it.
    @discardableResult
    func waitForTrace(_ description: String, timeout: Duration = defaultPollTimeout,
                      where matches: @escaping (TraceEntry) -> Bool) async throws -> TraceEntry {
        try await poll(timeout: timeout, "the trace to show \(description)") { trace.last(where: matches) }
    }

    /// Waits (in real time, briefly) until the service waits on its clock for a deadline that
    /// matches, and returns how far ahead it is.
    @discardableResult
    func waitForDeadline(_ description: String, where matches: @escaping @Sendable (Duration) -> Bool) async throws -> Duration {
        try await poll("the service to wait for \(description); it waits for \(clock.pendingDeadlines)") {
            self.clock.pendingDeadlines.first(where: matches)
        }
    }

    /// Advances the clock by `duration`, waits until the service waits for its next deadline,
    /// `left` away, and expects the trace to show no `event` yet.
    func expectNothing(_ event: String, after duration: Duration, leaving left: Duration,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        clock.advance(by: duration)
        try await waitForDeadline("the deadline, \(left) away") { Self.isNear($0, left) }
        #expect(!trace.contains { $0.event == event }, "\(event) came \(left) early", sourceLocation: sourceLocation)
    }

    /// Whether a timer's deadline is `target`, within a millisecond of rounding between dates and durations.
    static func isNear(_ deadline: Duration, _ target: Duration) -> Bool {
        deadline > target - .milliseconds(1) && deadline < target + .milliseconds(1)
    }
}
