/*
Abstract:
Tests for the install tracker: a run until the app is launchable, its waiters, and the outcome kept after it.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Installs in progress")
struct InstallTrackerTests {
    static func run() throws -> (app: String, run: InstallRun) {
        let app = try AppRegistryTests.sampleApp()
        return (app.bundleIdentifier, InstallRun(kind: .install, app: app))
    }

    @Test("An install runs until it is finished; its outcome, complete, outlives it")
    func finishKeepsOutcome() throws {
        let (app, run) = try Self.run()
        var installs = InstallTracker()
        #expect(installs.isEmpty)
        installs.begin(run, for: app)
        #expect(installs[app] != nil && !installs.isEmpty)
        installs[app]?.phase = .downloadingEssentialAssets
        #expect(installs[app]?.phase == .downloadingEssentialAssets, "changed in place")
        #expect(installs.outcome(of: app) == nil)

        let ended = installs.finish(app, note: "A note.")
        #expect(ended?.bundleIdentifier == app)
        #expect(installs[app] == nil && installs.isEmpty)
        let outcome = try #require(installs.outcome(of: app))
        #expect(outcome.progress.phase == .complete)
        #expect(outcome.progress.completedBytes == outcome.progress.totalBytes)
        #expect(outcome.progress.essentialSizesKnown == true, "ended without essential downloads, no allowance is left")
        #expect(outcome.progress.totalBytes == run.appShare)
        #expect(outcome.summary.contains("A note."))
        #expect(installs.finish(app, note: nil) == nil, "finishing twice does nothing")

        installs.begin(run, for: app)
        #expect(installs.outcome(of: app) == nil, "a new install forgets the last one's outcome")
    }

    @Test("Waiters are answered once, in order; a closed connection stops waiting; an uninstall hands them back")
    func waiters() throws {
        let (app, run) = try Self.run()
        var installs = InstallTracker()
        installs.begin(run, for: app)
        for connection: UInt64 in [1, 2, 3] {
            installs.wait(.init(connection: connection, requestID: connection * 10, recordLaunch: connection == 2), for: app)
        }
        installs.connectionClosed(2)
        #expect(installs.waiters(of: app).map(\.connection) == [1, 3])
        #expect(installs.takeWaiters(of: app).map(\.requestID) == [10, 30])
        #expect(installs.takeWaiters(of: app).isEmpty)

        installs.wait(.init(connection: 4, requestID: 40, recordLaunch: false), for: app)
        #expect(installs.cancel(app).map(\.connection) == [4])
        #expect(installs[app] == nil && installs.waiters(of: app).isEmpty && installs.outcome(of: app) == nil)
    }
}
