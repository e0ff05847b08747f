/*
Abstract:
Tests for an install's progress: the app's share, then the essential downloads, sized by the allowance and then by reality.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Install progress")
struct InstallRunTests {
    @Test("The bar starts after the app's share, sized by the essential allowance until the real sizes are known")
    func sizedByAllowanceFirst() throws {
        let app = try AppRegistryTests.sampleApp()
        let run = InstallRun(kind: .install, app: app)
        let plist = app.bundle.app
        let appShare = Int64(plist.maxInstallSize - plist.essentialMaxInstallSize)
        #expect(run.progress.phase == .requestingContent)
        #expect(run.progress.completedBytes == appShare)
        #expect(run.progress.totalBytes == appShare + Int64(plist.restrictions.essentialDownloadAllowance))
    }

    @Test("Progress names the app's share, whether the essential part is still the allowance, and whether it is packs")
    func namedParts() throws {
        let app = try AppRegistryTests.sampleApp()
        var run = InstallRun(kind: .install, app: app)
        #expect(run.progress.appBytes == run.appShare)
        #expect(run.progress.essentialSizesKnown == false)
        run.essential = EssentialPhase(rows: [(id: 1, size: 25_805)], arePacks: true)
        run.phase = .downloadingEssentialAssets
        #expect(run.progress.essentialSizesKnown == true)
        #expect(run.progress.essentialArePacks == true)
        #expect(run.progress.totalBytes == run.appShare + 25_805)
        #expect(run.summary(note: nil).contains("0 of 1 essential asset pack(s) (25.2 KiB) finished"))

        var empty = InstallRun(kind: .update, app: app)
        empty.phase = .complete
        // No essential downloads: the allowance no longer stands in, so the whole is the app's share.
        #expect(empty.progress.essentialSizesKnown == true)
        #expect(empty.progress.totalBytes == empty.appShare)
        #expect(empty.progress.completedBytes == empty.appShare)
    }

    @Test("Essential progress counts written bytes; a failed download's share counts as done")
    func essentialProgress() throws {
        let app = try AppRegistryTests.sampleApp()
        var run = InstallRun(kind: .install, app: app)
        run.essential = EssentialPhase(rows: [(id: 1, size: 1000), (id: 2, size: 3000)])
        run.phase = .downloadingEssentialAssets
        let appShare = run.appShare
        #expect(run.progress.totalBytes == appShare + 4000)
        run.essential?.record(rowID: 1, totalWritten: 500)
        #expect(run.progress.completedBytes == appShare + 500)
        // Progress past the declared size never pushes the bar past its end.
        run.essential?.record(rowID: 2, totalWritten: 9999)
        #expect(run.progress.completedBytes == appShare + 3500)
        run.essential?.finish(rowID: 1, download: Self.download("a"), file: URL(fileURLWithPath: "/tmp/a"))
        run.essential?.fail(rowID: 2, download: Self.download("b"), failure: .backgroundAssets(code: 0, message: "gone"))
        #expect(run.essential?.isComplete == true)
        #expect(run.progress.completedBytes == run.progress.totalBytes)
        #expect(run.progress.essentialFinished == 1)
        #expect(run.progress.essentialFailed == 1)
        #expect(run.progress.essentialTotal == 2)
    }

    @Test("Sizes an extension declares as Int64.max saturate the bar instead of overflowing")
    func extremeSizes() throws {
        let app = try AppRegistryTests.sampleApp()
        var run = InstallRun(kind: .update, app: app)
        run.essential = EssentialPhase(rows: [(id: 1, size: .max), (id: 2, size: .max), (id: 3, size: -5)])
        run.phase = .downloadingEssentialAssets
        #expect(run.essential?.totalBytes == .max)
        #expect(run.progress.totalBytes == .max)
        run.essential?.record(rowID: 1, totalWritten: .max)
        run.essential?.record(rowID: 2, totalWritten: .max)
        #expect(run.essential?.writtenBytes == .max)
        #expect(run.progress.completedBytes == .max)
        #expect(run.progress.fractionCompleted == 1)
        #expect(Int64.min.addingSaturated(-1) == .min)
        #expect(Int64(40).addingSaturated(2) == 42)
    }

    @Test("Rows outside the phase, and rows that already ended, change nothing")
    func foreignRows() {
        var phase = EssentialPhase(rows: [(id: 7, size: 10)])
        phase.record(rowID: 8, totalWritten: 5)
        phase.finish(rowID: 8, download: Self.download("x"), file: URL(fileURLWithPath: "/tmp/x"))
        #expect(phase.writtenBytes == 0)
        #expect(phase.finished.isEmpty)
        phase.finish(rowID: 7, download: Self.download("y"), file: URL(fileURLWithPath: "/tmp/y"))
        phase.fail(rowID: 7, download: Self.download("y"), failure: .backgroundAssets(code: 0, message: "late"))
        #expect(phase.finished.count == 1)
        #expect(phase.failed.isEmpty)
    }

    @Test("The summary names what finished and what failed, and why")
    func summary() throws {
        var run = InstallRun(kind: .update, app: try AppRegistryTests.sampleApp())
        run.essential = EssentialPhase(rows: [(id: 1, size: 10), (id: 2, size: 10)])
        run.essential?.finish(rowID: 1, download: Self.download("intro"), file: URL(fileURLWithPath: "/tmp/i"))
        run.essential?.fail(rowID: 2, download: Self.download("keynote"), failure: .backgroundAssets(code: 0, message: "404"))
        let text = run.summary(note: nil)
        #expect(text.hasPrefix("Updated \(run.bundleIdentifier) version \(run.version)."))
        #expect(text.contains("1 of 2 essential download(s)"))
        #expect(text.contains("keynote (404)"))
        #expect(text.contains("launchable"))
    }

    static func download(_ identifier: String) -> DownloadDescriptor {
        DownloadDescriptor(identifier: identifier, uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1/\(identifier)",
                           applicationGroupIdentifier: "group.example")
    }
}
