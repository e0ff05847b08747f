/*
Abstract:
Tests for the install lifecycle's launch gate and ends: waiting, answered once, one launch, uninstall, periodic requests.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Install lifecycle: launch gates and ends")
struct InstallLifecycleGateTests {
    typealias Waiter = InstallLifecycle.LaunchWaiter

    @Test("A launch gate that asks while the app installs waits, follows the progress, and is answered once when it ends")
    func gateWaitsWhileInstalling() throws {
        var (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        let gate = Waiter(connection: 7, requestID: 70, recordLaunch: true)
        guard case let .waits(actions) = lifecycle.launchGateAsks(app: app, gate) else {
            Issue.record("an installing app's gate must wait")
            return
        }
        #expect(actions == [.pushProgress(app: app, lifecycle.progress(of: app), to: [7])])
        _ = lifecycle.downloadsQueued(app: app, kind: .install, returnedAny: true, essentialRows: [(1, 100)],
                                      loggedErrors: InstallLifecycleEssentialTests.noLog)
        let progressed = lifecycle.essentialProgressed(app: app, rowID: 1, totalWritten: 40)
        #expect(progressed == [.pushProgress(app: app, lifecycle.progress(of: app), to: [7])])
        #expect(lifecycle.progress(of: app).completedBytes == (lifecycle.progress(of: app).appBytes ?? 0) + 40)

        #expect(lifecycle.contentRequestAbandoned(app: app, kind: .install, reason: "x").count == 2, "the install ends")
        #expect(lifecycle.launchGateAsks(app: app, Waiter(connection: 8, requestID: 80, recordLaunch: false)) == .now,
                "a gate asking after the end is answered at once")
        #expect(lifecycle.becameLaunchable(app: app, hasOpenedProcess: false) == .init(recordsLaunch: true, answers: [gate]))
        #expect(lifecycle.becameLaunchable(app: app, hasOpenedProcess: false) == .init(recordsLaunch: false, answers: []),
                "a gate is answered exactly once")
    }

    @Test("One launch is recorded however many gates wait, and only when one asked or a process was opened")
    func oneLaunch() throws {
        var (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        let quiet = [Waiter(connection: 1, requestID: 1, recordLaunch: false), Waiter(connection: 2, requestID: 2, recordLaunch: false)]
        for gate in quiet { _ = lifecycle.launchGateAsks(app: app, gate) }
        _ = lifecycle.contentRequestEnded(app: app, kind: .install, note: nil)
        #expect(lifecycle.becameLaunchable(app: app, hasOpenedProcess: false) == .init(recordsLaunch: false, answers: quiet))

        (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        let asking = [Waiter(connection: 1, requestID: 1, recordLaunch: true), Waiter(connection: 2, requestID: 2, recordLaunch: true)]
        for gate in asking { _ = lifecycle.launchGateAsks(app: app, gate) }
        _ = lifecycle.contentRequestEnded(app: app, kind: .install, note: nil)
        #expect(lifecycle.becameLaunchable(app: app, hasOpenedProcess: false) == .init(recordsLaunch: true, answers: asking),
                "one launch for both gates")

        // A process opened while the app installed is launched when it ends, with no gate asking.
        (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        _ = lifecycle.contentRequestEnded(app: app, kind: .install, note: nil)
        #expect(lifecycle.becameLaunchable(app: app, hasOpenedProcess: true) == .init(recordsLaunch: true, answers: []))
    }

    @Test("An install ends exactly once; a periodic request never ends it")
    func endsOnce() throws {
        var (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        #expect(lifecycle.contentRequestEnded(app: app, kind: .periodic, note: "ignored").isEmpty)
        #expect(lifecycle.isInstalling(app))
        #expect(lifecycle.contentRequestEnded(app: app, kind: .update, note: "No manifest.") == InstallLifecycleEssentialTests.ended(app, note: "No manifest."))
        #expect(lifecycle.contentRequestEnded(app: app, kind: .update, note: "Again.").isEmpty)
        #expect(lifecycle.essentialOutcomesReturned(app: app, extensionConnected: false).isEmpty)
        #expect(lifecycle.summary(of: app)?.contains("No manifest.") == true)
        #expect(lifecycle.progress(of: app).phase == .complete)
        #expect(lifecycle.isEmpty)
    }

    @Test("An install whose manifest could not be fetched ends saying so, for install --wait to report")
    func endsWithoutContent() throws {
        var (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        _ = lifecycle.contentRequestEnded(app: app, kind: .install, note: "The manifest could not be fetched.",
                                          contentFailure: "The manifest could not be fetched.")
        #expect(lifecycle.contentFailure(of: app) == "The manifest could not be fetched.")
        var (other, otherApp) = try InstallLifecycleEssentialTests.installing()
        _ = other.contentRequestEnded(app: otherApp, kind: .install, note: "No extension.")
        #expect(other.contentFailure(of: otherApp) == nil, "an install that ends for another reason got its content")
    }

    @Test("Uninstalling while installing releases the app's downloads and refuses its gates; a closed connection is never answered")
    func uninstallRefusesGates() throws {
        var (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        let gates = [Waiter(connection: 1, requestID: 10, recordLaunch: false), Waiter(connection: 2, requestID: 20, recordLaunch: true)]
        for gate in gates { _ = lifecycle.launchGateAsks(app: app, gate) }
        lifecycle.connectionClosed(1)
        #expect(lifecycle.uninstalled(app: app) == [.releaseOtherDownloads(app: app), .refuseLaunchGate(gates[1], app: app)])
        #expect(!lifecycle.isInstalling(app) && lifecycle.summary(of: app) == nil)
        #expect(lifecycle.contentRequestEnded(app: app, kind: .install, note: nil).isEmpty, "the forgotten install never ends")
    }

    @Test("The same version asked again joins the install; another version is refused while it runs")
    func admission() throws {
        var (lifecycle, app) = try InstallLifecycleEssentialTests.installing()
        let version = try #require(lifecycle.run(of: app)?.version)
        #expect(lifecycle.admit(app: app, version: version) == .join)
        #expect(lifecycle.admit(app: app, version: version + ".1") == .busy(runningVersion: version))
        _ = lifecycle.contentRequestEnded(app: app, kind: .install, note: nil)
        #expect(lifecycle.admit(app: app, version: version + ".1") == .start)
    }
}
