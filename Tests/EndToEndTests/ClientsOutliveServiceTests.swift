/*
Abstract:
End-to-end: install --wait and the app carry on through a crash of the service, starting it again themselves.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Clients outlive the service")
    struct ClientsOutliveServiceTests {
        /// Six sessions of 2 MiB through a server throttled to 1 MiB/s per connection: each kill
        /// lands while bytes move, and the whole test stays short.
        static let sessionSize = 2 << 20

        @Test("install --wait and the app each lose the service once and still end with every session in place")
        func installAndAppSurviveKills() async throws {
            // One background transfer at a time: what the installs leave for the app takes seconds
            // to download on its own, not one, before the test holds the server still.
            let configuration = sampleConfiguration.merging(["maxConcurrentDownloads": 1]) { $1 }
            // No service started by the test: the clients start it, and start it again.
            try await withServiceOnDemand(
                configuration: configuration, sessions: 6, sessionSize: Self.sessionSize, throttle: 1_048_576
            ) { device in
                try await Self.run(device)
            }
        }

        static func run(_ device: SampleDevice) async throws {
            let root = device.scenario.deviceRoot
            let server = device.server.process
            // A kill leaves the server held still; whatever happens, it sends again afterwards.
            defer { try? server.signal(SIGCONT) }
            let install = try device.scenario.launchTool(try device.installArguments())
            let app: ChildProcess
            do {
                // The essential phase is under way: kill its service, then ask for the same install again.
                let first = try #require(
                    try await ChaosTests.killMidTransfer(root, holding: server, after: nil, growth: 0.3, startedBy: install))
                // The installs need the rest of the essential bytes.
                try server.signal(SIGCONT)
                let again = try device.scenario.launchTool(try device.installArguments())
                #expect(try await again.waitForExit(timeout: .seconds(60)) == .exited(0), "\(again.diagnostics())")
                #expect(try await install.waitForExit(timeout: .seconds(60)) == .exited(0), "\(install.diagnostics())")
                // Held still until the app's kill: what the installs left to download stays left while
                // the app starts, however long a busy machine takes to start it.
                try server.signal(SIGSTOP)
                let catalog = try device.catalog()
                #expect(try await device.verifiedSessions(of: catalog).count < catalog.count,
                        "the downloads the installs left were over before the server was held")
                #expect(install.standardError().contains("Lost the service"), "\(install.diagnostics())")
                // Both find the service gone and start it; whichever reaches the new one second waits
                // behind the install already running. Which one that is, a busy machine decides, and it
                // may also start the second so late that the first install has ended: then the two ran
                // one after the other, the app launchable between them, never side by side.
                let waited = [install, again].filter {
                    $0.standardOutput().contains("is already installing; waiting until it is launchable")
                }
                // The service records a join itself: the tool's words depend on the status it could
                // read before asking, which a service starting at that moment may not have answered.
                let trace = device.trace()
                let joined = trace.contains { $0.event == "install" && $0.detail?.contains("already installing") == true }
                let installEvents = trace.filter { $0.event == "install" || $0.event == "appLaunchable" }.map(\.event)
                let oneAfterTheOther = installEvents.suffix(4) == ["install", "appLaunchable", "install", "appLaunchable"]
                #expect(!waited.isEmpty || joined || oneAfterTheOther,
                        "first: \(install.standardOutput())\nagain: \(again.standardOutput())\ninstalls: \(installEvents)")

                // The app's run: its delegate's connection comes back by itself after a kill.
                app = try ChildProcess.launch(
                    executableURL: try ProductsDirectory.executable(named: SampleDevice.appExecutable),
                    arguments: device.appArguments(timeout: 40), environment: device.scenario.environment)
                let second = try await ChaosTests.killMidTransfer(root, holding: server, after: first, growth: 0.3, startedBy: app)
                #expect(second != nil, "the app's downloads were over before the kill")
                try server.signal(SIGCONT)
            } catch {
                await install.terminate()
                throw error
            }
            do {
                #expect(try await app.waitForExit(timeout: .seconds(60)) == .exited(0), "\(app.diagnostics())")
            } catch {
                await app.terminate()
                throw error
            }
            try await device.waitUntilVerified(try device.catalog())
        }
    }
}
