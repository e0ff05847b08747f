/*
Abstract:
Unit tests of the asset-pack state: requests shared and superseded, events in order, progress spaced, removals.
*/

import AssetPackFormat
import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Asset-pack state")
struct AssetPackStateTests {
    private let app = "com.example.app"
    private let url = URL(string: "https://cdn.example.com/packs/Slides")!
    private func slides(_ version: Int) -> AssetPackDownloadManifest.Entry {
        AssetPackPolicyTests.entry("Slides", version, .onDemand, size: 1000)
    }

    /// The events among actions, as lines.
    private func events(_ actions: [AssetPackAction]) -> [String] {
        actions.compactMap { action in
            guard case let .emit(_, event) = action else { return nil }
            return switch event {
            case let .began(id, version): "began \(id) v\(version)"
            case let .paused(id, _): "paused \(id)"
            case let .downloading(id, _, completed, total): "downloading \(id) \(completed)/\(total)"
            case let .finished(id, version): "finished \(id) v\(version)"
            case let .failed(id, _, failure): "failed \(id): \(failure.message)"
            case let .removed(id): "removed \(id)"
            }
        }
    }

    @Test("A request schedules once; a second joins; an installed version needs nothing")
    func requests() {
        var state = AssetPackState()
        let (first, actions) = state.request(app: app, entry: slides(1), archiveURL: url, installedVersion: nil)
        #expect(first == .scheduled)
        #expect(actions == [.startDownload(app: app, entry: slides(1), archiveURL: url, isEssential: false)])
        #expect(state.request(app: app, entry: slides(1), archiveURL: url, installedVersion: nil) == (.joined, []))
        #expect(state.request(app: "com.example.other", entry: slides(1), archiveURL: url, installedVersion: nil).0 == .scheduled)
        #expect(state.request(app: app, entry: slides(3), archiveURL: url, installedVersion: 3) == (.alreadyInstalled, []))
    }

    @Test("A newer version supersedes the download of an older one")
    func supersede() {
        var state = AssetPackState()
        _ = state.request(app: app, entry: slides(1), archiveURL: url, installedVersion: nil)
        let (outcome, actions) = state.request(app: app, entry: slides(2), archiveURL: url, installedVersion: nil)
        #expect(outcome == .scheduled)
        #expect(actions == [.cancelDownload(app: app, identifier: AssetPackDownloadIdentifier(packID: "Slides", version: 1)),
                            .startDownload(app: app, entry: slides(2), archiveURL: url, isEssential: false)])
        #expect(state.downloadBegan(app: app, identifier: "asset-pack.Slides.v1").isEmpty)
    }

    @Test("The queue's events become began, spaced progress, install, then finished and a record, in that order")
    func lifecycle() {
        var state = AssetPackState(progressInterval: 1)
        _ = state.request(app: app, entry: slides(1), archiveURL: url, installedVersion: nil)
        let id = "asset-pack.Slides.v1"
        let start = Date(timeIntervalSince1970: 1000)
        var lines = events(state.downloadBegan(app: app, identifier: id))
        lines += events(state.downloadProgressed(app: app, identifier: id, written: 100, expected: 1000, now: start))
        // Within the interval and less than a percent: not reported.
        lines += events(state.downloadProgressed(app: app, identifier: id, written: 105, expected: 1000, now: start + 0.1))
        lines += events(state.downloadProgressed(app: app, identifier: id, written: 300, expected: 1000, now: start + 0.2))
        lines += events(state.downloadPaused(app: app, identifier: id))
        lines += events(state.downloadProgressed(app: app, identifier: id, written: 1000, expected: 1000, now: start + 0.3))
        #expect(state.activities(of: app)["Slides"]?.phase == .downloading(completedBytes: 1000, totalBytes: 1000))
        let archive = URL(fileURLWithPath: "/staging/x.part")
        #expect(state.downloadFinished(app: app, identifier: id, file: archive) == [.install(app: app, entry: slides(1), archive: archive)])
        #expect(state.activities(of: app)["Slides"]?.phase == .installing)
        let done = state.installFinished(app: app, identifier: id, installSize: 900, sizeOnDisk: 4096, now: start + 1)
        lines += events(done)
        guard case let .record(pack) = done.first else {
            Issue.record("no record before the event: \(done)")
            return
        }
        #expect(pack.version == 1 && pack.sizeOnDisk == 4096 && pack.downloadPolicy == .onDemand)
        #expect(lines == ["began Slides v1", "downloading Slides 100/1000", "downloading Slides 300/1000", "paused Slides",
                          "downloading Slides 1000/1000", "finished Slides v1"])
        #expect(state.activities(of: app).isEmpty)
    }

    @Test("A failure ends the download with its reason; downloads that are not packs are ignored")
    func failures() {
        var state = AssetPackState()
        _ = state.request(app: app, entry: slides(1), archiveURL: url, installedVersion: nil)
        let failure = WireFailure.backgroundAssets(code: 102, message: "Slides: does not match its seal.")
        #expect(state.downloadBegan(app: app, identifier: "wwdc23-10108").isEmpty)
        #expect(state.downloadBegan(app: "com.example.other", identifier: "asset-pack.Slides.v1").isEmpty)
        #expect(events(state.failed(app: app, identifier: "asset-pack.Slides.v1", failure: failure))
            == ["failed Slides: Slides: does not match its seal."])
        #expect(state.failed(app: app, identifier: "asset-pack.Slides.v1", failure: failure).isEmpty)
    }

    @Test("A plan starts essential downloads first, then background ones, then removes obsolete packs")
    func schedulePlan() {
        var state = AssetPackState()
        var plan = AssetPackPolicy.Plan()
        plan.essential = [AssetPackPolicyTests.entry("Resources", 1, AssetPackPolicyTests.first)]
        plan.background = [AssetPackPolicyTests.entry("Transcripts", 1, AssetPackPolicyTests.prefetch), slides(1)]
        plan.removals = ["Retired"]
        let actions = state.schedule(plan, app: app) { $0.id == "Slides" ? nil : URL(string: "https://cdn.example.com/\($0.id)") }
        #expect(actions.map { action -> String in
            switch action {
            case let .startDownload(_, entry, _, essential): "start \(entry.id)\(essential ? " essential" : "")"
            case let .remove(_, packID): "remove \(packID)"
            case let .emit(_, event): "emit \(event.packID)"
            default: "\(action)"
            }
        } == ["start Resources essential", "start Transcripts", "remove Retired", "emit Retired"])
    }

    @Test("Removing a pack while it downloads cancels the download and reports the removal")
    func removeWhileDownloading() {
        var state = AssetPackState()
        _ = state.request(app: app, entry: slides(2), archiveURL: url, installedVersion: 1)
        #expect(state.remove(app: app, packID: "Slides") == [
            .cancelDownload(app: app, identifier: AssetPackDownloadIdentifier(packID: "Slides", version: 2)),
            .remove(app: app, packID: "Slides"), .emit(app: app, event: .removed(packID: "Slides")),
        ])
        #expect(state.activities(of: app).isEmpty)
    }

    // MARK: - Started ahead of the extension's answer

    private func essential(_ id: String) -> AssetPackDownloadManifest.Entry {
        AssetPackPolicyTests.entry(id, 1, AssetPackPolicyTests.first, size: 100)
    }

    @Test("Packs started ahead of the extension's answer report nothing until it accepts them; the others are withdrawn")
    func startedAheadOfTheAnswer() {
        var state = AssetPackState()
        let archive = URL(fileURLWithPath: "/staging/Intro.part")
        #expect(state.startAhead([essential("Intro"), essential("Extras")], app: app) { URL(string: "https://cdn.example.com/\($0.id)") } == [
            .startDownload(app: app, entry: essential("Intro"), archiveURL: URL(string: "https://cdn.example.com/Intro")!, isEssential: true),
            .startDownload(app: app, entry: essential("Extras"), archiveURL: URL(string: "https://cdn.example.com/Extras")!, isEssential: true),
        ])
        // Intro arrives whole and Extras half before the answer: no event, and nothing installed.
        #expect(state.downloadBegan(app: app, identifier: "asset-pack.Intro.v1").isEmpty)
        #expect(state.downloadProgressed(app: app, identifier: "asset-pack.Intro.v1", written: 100, expected: 100, now: Date()).isEmpty)
        #expect(state.downloadFinished(app: app, identifier: "asset-pack.Intro.v1", file: archive).isEmpty)
        #expect(state.downloadBegan(app: app, identifier: "asset-pack.Extras.v1").isEmpty)
        #expect(state.downloadPaused(app: app, identifier: "asset-pack.Extras.v1").isEmpty)
        #expect(state.isAwaitingAnswer(app: app, identifier: "asset-pack.Intro.v1"))
        #expect(state.awaitingAnswer(of: app).map(\.id) == ["Extras", "Intro"])

        let actions = state.answered(app: app, accepted: ["Intro"])
        #expect(actions == [
            .withdrawDownload(app: app, identifier: AssetPackDownloadIdentifier(packID: "Extras", version: 1), heldArchive: nil),
            .emit(app: app, event: .began(packID: "Intro", version: 1)),
            .emit(app: app, event: .downloading(packID: "Intro", version: 1, completedBytes: 100, totalBytes: 100)),
            .install(app: app, entry: essential("Intro"), archive: archive),
        ])
        #expect(state.activities(of: app).keys.sorted() == ["Intro"])
        #expect(state.activities(of: app)["Intro"]?.phase == .installing)
        #expect(!state.isAwaitingAnswer(app: app, identifier: "asset-pack.Intro.v1"))
        #expect(state.answered(app: app, accepted: ["Intro"]).isEmpty, "an answer is taken once")
    }

    @Test("Without an answer every pack started ahead is withdrawn, but one the app asked for; a failure is reported only once accepted")
    func noAnswerAndHeldFailures() {
        var state = AssetPackState()
        let url = URL(string: "https://cdn.example.com/pack")!
        _ = state.startAhead([essential("Intro"), essential("Extras"), essential("Maps")], app: app) { _ in url }
        let archive = URL(fileURLWithPath: "/staging/Intro.part")
        _ = state.downloadFinished(app: app, identifier: "asset-pack.Intro.v1", file: archive)
        let failure = WireFailure.backgroundAssets(code: 102, message: "Extras: not found.")
        #expect(state.failed(app: app, identifier: "asset-pack.Extras.v1", failure: failure).isEmpty)
        #expect(state.request(app: app, entry: essential("Maps"), archiveURL: url, installedVersion: nil) == (.joined, []))
        #expect(state.goesOn(app: app, accepted: nil) == ["Maps"])
        #expect(state.answered(app: app, accepted: nil) == [
            .withdrawDownload(app: app, identifier: AssetPackDownloadIdentifier(packID: "Extras", version: 1), heldArchive: nil),
            .withdrawDownload(app: app, identifier: AssetPackDownloadIdentifier(packID: "Intro", version: 1), heldArchive: archive),
        ])
        #expect(state.activities(of: app).keys.sorted() == ["Maps"])

        _ = state.startAhead([essential("Extras")], app: app) { _ in url }
        _ = state.failed(app: app, identifier: "asset-pack.Extras.v1", failure: failure)
        #expect(events(state.answered(app: app, accepted: ["Extras"])) == ["failed Extras: Extras: not found."])
        #expect(state.activities(of: app)["Extras"] == nil)
    }

    @Test("Removing a pack that awaits the extension's answer withdraws its download with the archive it holds")
    func removeWhileAwaitingTheAnswer() {
        var state = AssetPackState()
        _ = state.startAhead([essential("Intro")], app: app) { _ in url }
        let archive = URL(fileURLWithPath: "/staging/Intro.part")
        _ = state.downloadFinished(app: app, identifier: "asset-pack.Intro.v1", file: archive)
        #expect(state.remove(app: app, packID: "Intro") == [
            .withdrawDownload(app: app, identifier: AssetPackDownloadIdentifier(packID: "Intro", version: 1), heldArchive: archive),
            .remove(app: app, packID: "Intro"), .emit(app: app, event: .removed(packID: "Intro")),
        ])
        #expect(state.answered(app: app, accepted: ["Intro"]).isEmpty)
    }
}
