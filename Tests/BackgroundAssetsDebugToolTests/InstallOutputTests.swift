/*
Abstract:
Unit tests of what `install` prints: install or update, the progress bar and lines, and the closing summary.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Show an install's progress and outcome")
struct InstallOutputTests {
    static func app(
        version: String = "2", state: AppStatus.InstallState = .launchable, progress: InstallProgress,
        summary: String? = nil
    ) -> AppStatus {
        AppStatus(
            bundleIdentifier: "com.example.WWDC-Sessions", version: version, appGroup: "group.com.example.WWDC-Sessions",
            state: state, progress: progress, hasLaunched: false, runtimeBudgetLeft: 600, installSummary: summary)
    }

    static let complete = InstallProgress(
        phase: .complete, completedBytes: 3_145_728, totalBytes: 3_145_728, essentialFinished: 2, essentialFailed: 1,
        essentialTotal: 3)

    static let plainConsole = Console(inputIsTerminal: false, outputIsTerminal: false, errorIsTerminal: false)

    @Test("An app installed before at another version was updated; at the same version, reinstalled")
    func headline() {
        let new = Self.app(progress: Self.complete)
        #expect(InstallSummary.headline(for: new, before: []) == "Installed com.example.WWDC-Sessions version 2")
        #expect(InstallSummary.headline(for: new, before: nil) == "Installed com.example.WWDC-Sessions version 2")
        let old = Self.app(version: "1", progress: Self.complete)
        #expect(InstallSummary.headline(for: new, before: [old])
            == "Updated com.example.WWDC-Sessions from version 1 to 2")
        #expect(InstallSummary.headline(for: new, before: [new]) == "Reinstalled com.example.WWDC-Sessions version 2")
    }

    @Test("The summary is the service's own when it wrote one")
    func serviceSummary() {
        let text = "Downloaded 3 essential sessions (3.0 MiB) in 2 s; none failed."
        #expect(InstallSummary.paragraph(for: Self.app(progress: Self.complete, summary: " \(text)\n")) == text)
        #expect(InstallSummary.paragraph(for: Self.app(progress: Self.complete, summary: "  ")).hasPrefix(
            "com.example.WWDC-Sessions version 2 is launchable."))
    }

    @Test("Without the service's summary, one is built from the essential downloads that finished and failed")
    func builtSummary() {
        let failed = InstallSummary.paragraph(for: Self.app(progress: Self.complete))
        #expect(failed.hasPrefix("com.example.WWDC-Sessions version 2 is launchable. "
            + "Of its 3 essential downloads, 2 finished and 1 failed."))
        #expect(failed.contains("removingEssential()"))
        #expect(failed.contains("trace -b com.example.WWDC-Sessions"))

        let clean = InstallSummary.paragraph(for: Self.app(progress: InstallProgress(
            phase: .complete, completedBytes: 5, totalBytes: 5, essentialFinished: 1, essentialTotal: 1)))
        #expect(clean == "com.example.WWDC-Sessions version 2 is launchable. "
            + "Of its essential download, 1 finished and 0 failed.")

        let none = InstallSummary.paragraph(for: Self.app(progress: InstallProgress(
            phase: .complete, completedBytes: 0, totalBytes: 0)))
        #expect(none.contains("asked for no essential downloads"))

        let cut = InstallSummary.paragraph(for: Self.app(progress: InstallProgress(
            phase: .complete, completedBytes: 1, totalBytes: 1, essentialFinished: 1, essentialTotal: 4)))
        #expect(cut.contains("1 finished and 0 failed (3 did not end)."), "\(cut)")
    }

    static let mebibyte: Int64 = 1_048_576

    /// The sample's install: the app's 96 MiB, then 32 MiB of allowance until two essential downloads of 17.2 MiB.
    static func sample(_ phase: InstallProgress.Phase, essentialDone: Int64 = 0, finished: Int = 0) -> InstallProgress {
        let known = phase != .requestingContent
        let essential = known ? 18_035_507 : 32 * mebibyte
        return InstallProgress(
            phase: phase, completedBytes: 96 * mebibyte + essentialDone, totalBytes: 96 * mebibyte + essential,
            essentialFinished: finished, essentialTotal: known ? 2 : 0, appBytes: 96 * mebibyte,
            essentialSizesKnown: known, essentialArePacks: false)
    }

    @Test("The bar fills with the bytes done and names the phase, the app's part and the essential part")
    func bar() {
        let progress = InstallProgress(
            phase: .downloadingEssentialAssets, completedBytes: 3_145_728, totalBytes: 10_485_760,
            essentialFinished: 2, essentialFailed: 1, essentialTotal: 5, appBytes: 1_048_576, essentialSizesKnown: true)
        #expect(InstallProgressReporter.bar(progress, width: 10)
            == "[###.......] 30%  downloading essential assets  app 1.0 MiB + essential assets 2.0 of 9.0 MiB, "
            + "2 of 5 finished, 1 failed")
        let start = InstallProgress(phase: .downloadingApp, completedBytes: 0, totalBytes: 0)
        #expect(InstallProgressReporter.bar(start, width: 4) == "[....] 0%  downloading the app", "no bytes, no sizes")
        let done = InstallProgress(phase: .complete, completedBytes: 0, totalBytes: 0)
        #expect(InstallProgressReporter.bar(done, width: 4) == "[####] 100%  complete")
    }

    @Test("The app's part keeps its size on every line, said once what it is; the allowance gives way to real sizes")
    func partsKeepTheirTotals() {
        var reporter = InstallProgressReporter(console: Self.plainConsole, bundleIdentifier: "com.example.a")
        #expect(reporter.plainLine(for: Self.sample(.requestingContent))
            == "com.example.a: asking the extension for its downloads; app 96.0 MiB (the app's own download: "
            + "BAMaxInstallSize less BAEssentialMaxInstallSize) + essential assets up to 32.0 MiB "
            + "(BAEssentialDownloadAllowance, until the extension returns them)")
        #expect(reporter.plainLine(for: Self.sample(.downloadingEssentialAssets))
            == "com.example.a: downloading essential assets; app 96.0 MiB + essential assets 0.0 of 17.2 MiB, "
            + "0 of 2 finished")
        #expect(reporter.plainLine(for: Self.sample(.downloadingEssentialAssets, essentialDone: 9 * Self.mebibyte))
            == "com.example.a: downloading essential assets; app 96.0 MiB + essential assets 9.0 of 17.2 MiB, "
            + "0 of 2 finished")
        #expect(reporter.plainLine(for: Self.sample(.complete, essentialDone: 18_035_507, finished: 2))
            == "com.example.a: complete; app 96.0 MiB + essential assets 17.2 of 17.2 MiB, 2 of 2 finished")
    }

    @Test("An app whose essential content is asset packs counts its packs; one without essential content says so")
    func packsAndNothing() {
        var reporter = InstallProgressReporter(console: Self.plainConsole, bundleIdentifier: "com.example.b")
        let pack = InstallProgress(
            phase: .downloadingEssentialAssets, completedBytes: 48 * Self.mebibyte,
            totalBytes: 48 * Self.mebibyte + 25_805, essentialTotal: 1, appBytes: 48 * Self.mebibyte, essentialSizesKnown: true, essentialArePacks: true)
        #expect(reporter.plainLine(for: pack)?.contains("app 48.0 MiB (the app's own download: ") == true,
                "the first line says what the app's part is, whatever the phase")
        var later = InstallProgressReporter(console: Self.plainConsole, bundleIdentifier: "com.example.b")
        _ = later.plainLine(for: Self.sample(.requestingContent))
        #expect(later.plainLine(for: pack)
            == "com.example.b: downloading essential assets; app 48.0 MiB + essential packs 0 of 1, 25.2 KiB")
        let nothing = InstallProgress(
            phase: .complete, completedBytes: 96 * Self.mebibyte, totalBytes: 96 * Self.mebibyte,
            appBytes: 96 * Self.mebibyte, essentialSizesKnown: true)
        #expect(later.plainLine(for: nothing) == "com.example.b: complete; app 96.0 MiB + no essential assets")
    }

    @Test("Without a terminal a line is printed per phase and per tenth of the essential part, not per event")
    func plainLines() {
        var reporter = InstallProgressReporter(console: Self.plainConsole, bundleIdentifier: "com.example.a")
        func line(_ phase: InstallProgress.Phase, _ done: Int64, _ total: Int64 = 100) -> String? {
            reporter.plainLine(for: InstallProgress(
                phase: phase, completedBytes: done, totalBytes: total, essentialFinished: 0, essentialTotal: 2))
        }
        #expect(line(.downloadingApp, 0, 0)
            == "com.example.a: downloading the app; essential assets up to 0 bytes "
            + "(BAEssentialDownloadAllowance, until the extension returns them)")
        #expect(line(.downloadingApp, 0) == nil, "the same phase and tenth, now with a size")
        #expect(line(.downloadingApp, 5) == nil, "the same phase and tenth")
        #expect(line(.requestingContent, 5)?.hasPrefix("com.example.a: asking the extension for its downloads") == true)
        #expect(line(.downloadingEssentialAssets, 9) != nil, "a new phase")
        #expect(line(.downloadingEssentialAssets, 10) != nil, "a new tenth")
        #expect(line(.downloadingEssentialAssets, 19) == nil)
        #expect(line(.downloadingEssentialAssets, 35) != nil, "two tenths at once print one line")
        #expect(line(.downloadingEssentialAssets, 10, 1000) == nil, "a total that grew moves the fraction back")
        #expect(line(.downloadingEssentialAssets, 100, 1000) != nil, "and the next tenth from there prints again")
        #expect(line(.complete, 1000, 1000) != nil)
    }
}
