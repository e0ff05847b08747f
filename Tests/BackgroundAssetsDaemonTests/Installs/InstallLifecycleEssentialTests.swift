/*
Abstract:
Tests for the install lifecycle's essential phase: outcomes to the extension, failures, asset packs, a failing extension, a restart.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Install lifecycle: the essential phase")
struct InstallLifecycleEssentialTests {
    /// A lifecycle with the sample app's install started.
    static func installing() throws -> (lifecycle: InstallLifecycle, app: String) {
        let app = try AppRegistryTests.sampleApp()
        var lifecycle = InstallLifecycle()
        #expect(lifecycle.begin(InstallRun(kind: .install, app: app)) == [])
        return (lifecycle, app.bundleIdentifier)
    }

    static let download = InstallRunTests.download
    static let file = URL(fileURLWithPath: "/staging/a")
    static let gone = WireFailure.backgroundAssets(code: 0, message: "404 Not Found")
    static func noLog(_: Date) -> [String] { [] }

    static func ended(_ app: String, note: String? = nil) -> [InstallAction] {
        [.releaseOtherDownloads(app: app), .markLaunchable(app: app, note: note)]
    }

    @Test("Essential downloads hold the app's others; their outcomes reach the extension in one batch whose last call ends the install")
    func outcomesInOneBatch() throws {
        var (lifecycle, app) = try Self.installing()
        #expect(lifecycle.essentialDownloadsComing(app: app, kind: .install) == [.holdOtherDownloads(app: app)])
        #expect(lifecycle.downloadsQueued(app: app, kind: .install, returnedAny: true,
                                          essentialRows: [(1, 100), (2, 300)], loggedErrors: Self.noLog).isEmpty,
                "no gate waits, so no progress is pushed")
        #expect(lifecycle.run(of: app)?.phase == .downloadingEssentialAssets)
        #expect(lifecycle.essentialProgressed(app: app, rowID: 9, totalWritten: 5).isEmpty, "not an essential row")
        #expect(lifecycle.downloadFinished(app: app, rowID: 9, download: Self.download("other"), file: Self.file) == nil,
                "a row outside the phase goes on to its delivery")

        let a = Self.download("a"), b = Self.download("b")
        #expect(lifecycle.downloadFinished(app: app, rowID: 1, download: a, file: Self.file) == [])
        #expect(lifecycle.essentialFilesHeld(of: app) == [1], "a finished essential file is held for the extension")
        let settled = lifecycle.downloadFailed(app: app, rowID: 2, download: b, failure: Self.gone)
        let last = try #require(settled)
        var delivery = ExtensionCallRecord(call: .finished(download: a, filePath: Self.file.path), purpose: .delivery(file: Self.file, rowID: 1))
        var failure = ExtensionCallRecord(call: .failed(download: b, failure: Self.gone), purpose: .notice)
        delivery.completesInstall = false
        failure.completesInstall = true
        #expect(last == [.callExtension(app: app, [delivery, failure])])
        #expect(lifecycle.isInstalling(app), "the app waits until the extension handled the outcomes")
        #expect(lifecycle.downloadFailed(app: app, rowID: 2, download: b, failure: Self.gone) == nil, "a settled row settles once")

        // The extension is still running: the install waits until it is done.
        #expect(lifecycle.essentialOutcomesReturned(app: app, extensionConnected: true).isEmpty)
        #expect(lifecycle.isInstalling(app))
        #expect(lifecycle.extensionDone(app: app) == Self.ended(app))
        #expect(!lifecycle.isInstalling(app))
        #expect(lifecycle.extensionDone(app: app).isEmpty, "done twice ends nothing")
        let summary = try #require(lifecycle.summary(of: app))
        #expect(summary.contains("1 of 2 essential download(s)"))
        #expect(summary.contains("1 failed: b (404 Not Found)"))
    }

    @Test("When every essential download fails, the extension still receives each failure before the app is launchable")
    func everyEssentialFails() throws {
        var (lifecycle, app) = try Self.installing()
        _ = lifecycle.downloadsQueued(app: app, kind: .update, returnedAny: true, essentialRows: [(1, 10)], loggedErrors: Self.noLog)
        let settled = lifecycle.downloadFailed(app: app, rowID: 1, download: Self.download("a"), failure: Self.gone)
        let actions = try #require(settled)
        guard case let .callExtension(_, records) = try #require(actions.last) else {
            Issue.record("expected a call to the extension, got \(actions)")
            return
        }
        #expect(records.map(\.completesInstall) == [true])
        #expect(lifecycle.progress(of: app).essentialFailed == 1)
        #expect(lifecycle.progress(of: app).completedBytes == lifecycle.progress(of: app).totalBytes, "a failed share counts as done")
        // Its process already exited: the install ends as the call returns.
        #expect(lifecycle.essentialOutcomesReturned(app: app, extensionConnected: false) == Self.ended(app))
    }

    @Test("An extension that returns no essential download ends the install; an empty answer is explained by what it logged")
    func noEssentialDownloads() throws {
        var (lifecycle, app) = try Self.installing()
        #expect(lifecycle.essentialDownloadsComing(app: app, kind: .periodic).isEmpty)
        #expect(lifecycle.downloadsQueued(app: app, kind: .periodic, returnedAny: false, essentialRows: [], loggedErrors: Self.noLog).isEmpty,
                "a periodic request never ends an install")
        #expect(lifecycle.downloadsQueued(app: app, kind: .install, returnedAny: true, essentialRows: [], loggedErrors: Self.noLog) == Self.ended(app))
        #expect(lifecycle.progress(of: app).totalBytes == lifecycle.progress(of: app).appBytes, "the allowance no longer stands in")

        (lifecycle, app) = try Self.installing()
        let asked = Date(timeIntervalSince1970: 1000)
        lifecycle.contentRequested(app: app, at: asked)
        var since: Date?
        let actions = lifecycle.downloadsQueued(app: app, kind: .install, returnedAny: false, essentialRows: []) {
            since = $0
            return ["The manifest did not decode.", "Nothing to do."]
        }
        #expect(since == asked, "only what it logged since it was asked")
        #expect(actions == Self.ended(app, note: "The extension returned no downloads. It logged: The manifest did not decode. / Nothing to do."))
    }

    @Test("An extension that fails ends the install with a note: no answer, outcomes undelivered, or not a managed extension")
    func extensionFails() throws {
        var (lifecycle, app) = try Self.installing()
        #expect(lifecycle.contentRequestAbandoned(app: app, kind: .periodic, reason: "it crashed").isEmpty)
        #expect(lifecycle.contentRequestAbandoned(app: app, kind: .install, reason: "it crashed") == Self.ended(
            app, note: "The extension did not return downloads (it crashed), so the app became launchable without essential assets."))
        #expect(lifecycle.contentRequestAbandoned(app: app, kind: .install, reason: "again").isEmpty, "an install ends once")

        (lifecycle, app) = try Self.installing()
        _ = lifecycle.downloadsQueued(app: app, kind: .install, returnedAny: true, essentialRows: [(1, 10)], loggedErrors: Self.noLog)
        _ = lifecycle.downloadFinished(app: app, rowID: 1, download: Self.download("a"), file: Self.file)
        #expect(lifecycle.essentialOutcomesUndelivered(app: app, reason: "its daily runtime budget is spent") == Self.ended(
            app, note: "The extension did not receive every essential outcome (its daily runtime budget is spent)."))

        (lifecycle, app) = try Self.installing()
        #expect(lifecycle.packSelectionReturned(app: app, .notManaged(note: "Not managed."), ended: []) == Self.ended(app, note: "Not managed."))
    }

    @Test("Essential asset packs end the install once the last is installed or refused, counting those that ended before the phase began")
    func assetPackEssentials() throws {
        var (lifecycle, app) = try Self.installing()
        #expect(lifecycle.essentialDownloadsComing(app: app, kind: .install) == [.holdOtherDownloads(app: app)])
        // The queue reported pack 2 installed while the extension's answer was still being scheduled.
        let early = AssetPackCoordinator.PackEnd(app: app, rowID: 2, packID: "levels", failure: nil)
        #expect(lifecycle.packsEnded([early]).isEmpty)
        #expect(lifecycle.packSelectionReturned(app: app, .accepted(essentialRows: [(1, 100), (2, 200), (3, 300)]), ended: []).isEmpty)
        #expect(lifecycle.progress(of: app).essentialArePacks == true)
        #expect(lifecycle.progress(of: app).essentialFinished == 1, "the early end counts")
        let refused = AssetPackCoordinator.PackEnd(app: app, rowID: 3, packID: "music", failure: Self.gone)
        #expect(lifecycle.packsEnded([refused]).isEmpty)
        #expect(lifecycle.isInstalling(app))
        let installed = AssetPackCoordinator.PackEnd(app: app, rowID: 1, packID: "tutorial", failure: nil)
        // Packs are the system's own: nothing for the extension, the install ends at once.
        #expect(lifecycle.packsEnded([installed, installed]) == Self.ended(app))
        let summary = try #require(lifecycle.summary(of: app))
        #expect(summary.contains("2 of 3 essential asset pack(s)"))
        #expect(summary.contains("the asset pack music (404 Not Found)"))

        (lifecycle, app) = try Self.installing()
        #expect(lifecycle.packSelectionReturned(app: app, .accepted(essentialRows: []), ended: [early]) == Self.ended(app),
                "no essential pack: launchable at once")
    }

    @Test("A restart in the middle picks the install up with the essential rows still queued, or ends it when none is left")
    func restartInTheMiddle() throws {
        let app = try AppRegistryTests.sampleApp()
        let id = app.bundleIdentifier
        var lifecycle = InstallLifecycle()
        #expect(lifecycle.resumed(InstallRun(kind: .install, app: app), essentialRows: [(4, 50)]) == [.holdOtherDownloads(app: id)])
        #expect(lifecycle.isInstalling(id))
        #expect(lifecycle.run(of: id)?.phase == .downloadingEssentialAssets)
        let settled = lifecycle.downloadFinished(app: id, rowID: 4, download: Self.download("a"), file: Self.file)
        let actions = try #require(settled)
        #expect(actions.count == 1, "the outcome reaches the extension: \(actions)")

        var empty = InstallLifecycle()
        #expect(empty.resumed(InstallRun(kind: .install, app: app), essentialRows: []) == Self.ended(
            id, note: "The service restarted during the install, with no essential download left."))
        #expect(!empty.isInstalling(id))
    }
}
