/*
Abstract:
Tests that an app's exclusive control and its extension's finished files never leave a file nowhere: control waits for the file in the extension's hands, and a file finishing under the app's control waits for it.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension ExtensionHandOverTests {
    @Test("Exclusive control asked for while the extension has a finished file in hand comes once it is done with it")
    func controlWaitsForTheFileInTheExtensionsHands() async throws {
        // The extension sleeps with the file, then moves it into place itself and returns without
        // asking for control: it is done with it once idle for the grace, on the service's clock.
        try await Self.withFileInTheExtensionsHands(behaviour: ["finishedSleepSeconds": 2]) { setup, app, held in
            let grant = Self.askForControl(app, lookingFor: held, in: setup)
            try await setup.device.waitForTrace("the extension's return") {
                $0.event == "return" && $0.download == held.identifier
            }
            // Past the return the grant waits for the idle grace, which only the test's clock ends.
            try await poll(until: {
                setup.device.clock.advance(by: .milliseconds(100))
                return setup.device.trace.contains { $0.event == "acquireExclusiveControl" && $0.from == "app" }
            }, "exclusive control granted to the app")
            let (response, fileWasInPlace) = try await grant.value
            #expect(response == .exclusiveControlGranted, "\(response)")
            #expect(fileWasInPlace, "the app held control while the extension had the file in hand")
            let trace = setup.device.trace
            let returned = try #require(trace.firstIndex { $0.event == "return" && $0.download == held.identifier })
            let granted = try #require(trace.firstIndex { $0.event == "acquireExclusiveControl" && $0.from == "app" })
            #expect(returned < granted, "granted at \(trace[granted].time), the file returned at \(trace[returned].time)")
        }
    }

    @Test("The extension's request made with a finished file in hand goes ahead of the app that asked first")
    func extensionWithTheFileGoesFirst() async throws {
        // As Apple's sample does: aside in the entry point, control asked for before it returns, the
        // move into place in the handler, half a second under control.
        try await Self.withFileInTheExtensionsHands(behaviour: ["finishedSleepSeconds": 2, "movesAsTheSampleDoes": true]) { setup, app, held in
            let (response, fileWasInPlace) = try await Self.askForControl(app, lookingFor: held, in: setup).value
            #expect(response == .exclusiveControlGranted, "\(response)")
            #expect(fileWasInPlace, "the app held control before the extension moved the file into place")
            let grants = setup.device.trace.filter { $0.event == "acquireExclusiveControl" }.map(\.from)
            #expect(grants == ["extension", "app"], "\(grants)")
        }
    }

    @Test("An extension killed with a finished file in hand lets the waiting app have control once the file is kept for it, and listed")
    func killedExtensionLetsTheAppIn() async throws {
        try await Self.withFileInTheExtensionsHands(behaviour: ["finishedSleepSeconds": 3600]) { setup, app, held in
            let grant = Self.askForControl(app, lookingFor: held, in: setup)
            let launched = try #require(setup.device.trace.last { $0.event == "extensionLaunched" })
            let pid = try #require(launched.detail.flatMap { Int32($0.replacingOccurrences(of: "pid ", with: "")) })
            // The app waits, nobody holding control, while the extension sleeps with the file.
            let bundle = setup.installed.bundleIdentifier
            try await poll(until: { await setup.device.service.arbiter.hasWaiters(for: bundle) }, "the app to wait for control")
            #expect(await setup.device.service.arbiter.holder(of: bundle) == nil)
            #expect(kill(pid, SIGKILL) == 0)
            let (response, _) = try await grant.value
            #expect(response == .exclusiveControlGranted, "\(response)")
            // With control, the app finds the file: kept for it, and listed on its way to its delegate.
            try await Self.expect(app, toList: [held.uniqueIdentifier])
        }
    }

    @Test("A file that finishes while the app holds exclusive control with no delegate stays listed to it, and goes to the extension once it lets go")
    func fileWaitsForTheAppToLetGo() async throws {
        try await Self.withInstalledApp { setup in
            let app = try await setup.device.client(setup.installed.bundleIdentifier)
            #expect(try await app.ask(.downloads(.acquireExclusiveControl(deadline: nil))) == .exclusiveControlGranted)
            let held = try await setup.finish("underControl", from: app, "the download's finish") { $0.event == "finishedWithFileURL" }
            // Under control the app finds the session listed, finished: it does not start it again.
            try await Self.expect(app, toList: [held.uniqueIdentifier])
            let finish = setup.device.trace.last { $0.event == "finishedWithFileURL" && $0.download == held.identifier }
            #expect(finish?.detail?.hasPrefix("held while the app holds exclusive control") == true, "\(String(describing: finish))")
            #expect(!setup.device.trace.contains { $0.event == Self.finishedCall && $0.download == held.identifier })
            #expect(try await app.ask(.downloads(.releaseExclusiveControl)) == .done)
            try await setup.device.waitForTrace("the file sent to the extension once the app let go") {
                $0.event == Self.finishedCall && $0.to == "extension" && $0.download == held.identifier
            }
        }
    }

    @Test("An app that lets go of control and asks again while the file held for it goes to the extension gets control once the file is in place")
    func controlWaitsForTheFileOnItsWay() async throws {
        try await Self.withInstalledApp(behaviour: ["movesAsTheSampleDoes": true]) { setup in
            let app = try await setup.device.client(setup.installed.bundleIdentifier)
            #expect(try await app.ask(.downloads(.acquireExclusiveControl(deadline: nil))) == .exclusiveControlGranted)
            let held = try await setup.finish("onItsWay", from: app, "the file held while the app has control") {
                $0.event == "finishedWithFileURL" && ($0.detail ?? "").hasPrefix("held while the app holds exclusive control")
            }
            // Answered once the file is queued for the extension, launched for it; asked again at
            // once, before that extension has checked in and been sent the file.
            #expect(try await app.ask(.downloads(.releaseExclusiveControl)) == .done)
            let (response, fileWasInPlace) = try await Self.askForControl(app, lookingFor: held, in: setup).value
            #expect(response == .exclusiveControlGranted, "\(response)")
            #expect(fileWasInPlace, "the app had control while the file was on its way to the extension")
            let grants = setup.device.trace.filter { $0.event == "acquireExclusiveControl" }.map(\.from)
            #expect(grants == ["app", "extension", "app"], "\(grants)")
        }
    }

    @Test("An app whose connection ends while it holds exclusive control leaves the file held for it to the extension")
    func fileOutlivesTheAppsControl() async throws {
        try await Self.withInstalledApp { setup in
            let app = try await setup.device.client(setup.installed.bundleIdentifier)
            #expect(try await app.ask(.downloads(.acquireExclusiveControl(deadline: nil))) == .exclusiveControlGranted)
            let held = try await setup.finish("underControl", from: app, "the file held while the app has control") {
                $0.event == "finishedWithFileURL" && ($0.detail ?? "").hasPrefix("held while the app holds exclusive control")
            }
            app.close()
            try await setup.device.waitForTrace("the file sent to the extension once the app was gone") {
                $0.event == Self.finishedCall && $0.to == "extension" && $0.download == held.identifier
            }
        }
    }

    /// Installs the lifecycle test app with its extension behaving as `behaviour` says, and has a
    /// download finish with no delegate connected, so its file goes to the extension.
    /// - Parameter body: Runs with the app's connection, which has no delegate, and the download
    ///   whose file the extension was sent.
    static func withFileInTheExtensionsHands(
        behaviour: [String: any Sendable], _ body: (Setup, RawServiceClient, DownloadDescriptor) async throws -> Void
    ) async throws {
        try await withInstalledApp(behaviour: behaviour) { setup in
            let app = try await setup.device.client(setup.installed.bundleIdentifier)
            let held = try await setup.finish("held", from: app, "the file sent to the extension") {
                $0.event == finishedCall && $0.to == "extension"
            }
            try await body(setup, app, held)
        }
    }

    /// Asks for the app's exclusive control, and notes whether the download's file was in the
    /// extension's files folder (`lifecycle-test-extension`'s) the moment control came.
    /// - Returns: The task that waits for the answer, with whether the file was in place then.
    static func askForControl(
        _ app: RawServiceClient, lookingFor download: DownloadDescriptor, in setup: Setup
    ) -> Task<(ServerResponse, Bool), any Error> {
        let container = setup.device.paths.container(forAppGroup: setup.installed.fixture.appGroupIdentifier)
        let placed = container?.appending(path: "Library/Application Support/lifecycle-test/files/\(download.identifier)")
        return Task {
            let response = try await app.ask(.downloads(.acquireExclusiveControl(deadline: nil)))
            return (response, placed.map { FileManager.default.fileExists(atPath: $0.path) } ?? false)
        }
    }
}
