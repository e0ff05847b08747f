/*
Abstract:
Tests for the extension host's state: where queued calls go, what an app's extension still owes, and what is remembered.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Extension runs")
struct ExtensionRunsTests {
    static let app = "com.example.app"

    static func record(_ rowID: Int64) -> ExtensionCallRecord {
        ExtensionCallRecord(call: .willTerminate, purpose: .delivery(file: URL(fileURLWithPath: "/f\(rowID)"), rowID: rowID))
    }

    static func rowIDs(_ records: [ExtensionCallRecord]) -> [Int64] {
        records.compactMap { if case let .delivery(_, rowID) = $0.purpose { rowID } else { nil } }
    }

    /// A run of a process that is only a number: the runs hold no process.
    static func run(pid: Int32 = 100) -> ExtensionRun {
        ExtensionRun(pid: pid, launchedAt: .now)
    }

    @Test("Calls go to the running extension, wait while it ends, and need a launch when none runs")
    func queueing() {
        var runs = ExtensionRuns()
        #expect(runs.queue([Self.record(1)], for: Self.app) == .needsLaunch)
        #expect(runs.callsOwed(to: Self.app).isEmpty, "nothing is kept for a launch that has not happened")

        runs[Self.app] = Self.run()
        #expect(runs.queue([Self.record(1), Self.record(2)], for: Self.app) == .toRunning)
        #expect(Self.rowIDs(Array(runs[Self.app]?.pending.waiting ?? [])) == [1, 2])

        runs[Self.app]?.isTerminating = true
        #expect(runs.queue([Self.record(3)], for: Self.app) == .deferred)
        #expect(Self.rowIDs(runs.callsOwed(to: Self.app)) == [1, 2, 3])

        runs[Self.app] = nil
        #expect(Self.rowIDs(runs.takeDeferred(of: Self.app)) == [3])
        #expect(runs.takeDeferred(of: Self.app).isEmpty)
        #expect(runs.isEmpty)
    }

    @Test("A finished file not sent yet can be taken back, queued or deferred; an essential outcome or the running call cannot")
    func takingBackUnsentFiles() {
        func finished(_ rowID: Int64, essential: Bool = false) -> ExtensionCallRecord {
            let download = DownloadDescriptor(
                identifier: "d\(rowID)", uniqueIdentifier: "u\(rowID)", url: "https://example.com/\(rowID)", fileSize: 1,
                applicationGroupIdentifier: "group.com.example.app", isEssential: essential)
            return ExtensionCallRecord(call: .finished(download: download, filePath: "/f\(rowID)"), purpose: .delivery(file: URL(fileURLWithPath: "/f\(rowID)"), rowID: rowID))
        }
        var runs = ExtensionRuns()
        runs[Self.app] = Self.run()
        runs[Self.app]?.running = .init(id: 1, record: finished(1), sentAt: .now, limit: .init(seconds: 60, isBudget: false))
        #expect(runs.queue([finished(2), finished(3, essential: true), Self.record(4)], for: Self.app) == .toRunning)
        runs[Self.app]?.isTerminating = true
        #expect(runs.queue([finished(5)], for: Self.app) == .deferred)

        #expect(Self.rowIDs(runs.takeUnsentDeliveries(of: Self.app)) == [2, 5])
        #expect(Self.rowIDs(runs.callsOwed(to: Self.app)) == [3, 4, 1], "the essential outcome, another call, and the running one stay")
        #expect(runs.takeUnsentDeliveries(of: Self.app).isEmpty)
        #expect(runs.takeUnsentDeliveries(of: "com.example.other").isEmpty)
    }

    @Test("The extension on a connection is found by its connection")
    func byConnection() {
        var runs = ExtensionRuns()
        runs[Self.app] = Self.run()
        runs["com.example.other"] = Self.run()
        runs[Self.app]?.connection = 7
        #expect(runs.run(onConnection: 7)?.app == Self.app)
        #expect(runs.run(onConnection: 8) == nil)
        #expect(runs.apps == ["com.example.app", "com.example.other"])
    }

    @Test("Terminations, content requests and runtime are remembered per app")
    func remembered() {
        var runs = ExtensionRuns()
        #expect(runs.lastTermination(of: Self.app) == nil)
        runs.recordTermination(of: Self.app, reason: "memory limit")
        #expect(runs.lastTermination(of: Self.app) == "memory limit")
        runs.contentRequestStarted(Self.app)
        #expect(runs.isAnsweringContentRequest(Self.app) && !runs.isAnsweringContentRequest("com.example.other"))
        runs.contentRequestEnded(Self.app)
        #expect(!runs.isAnsweringContentRequest(Self.app))
        runs.setRuntimeUsedToday(12.5, for: Self.app)
        #expect(runs.runtimeUsedToday(Self.app) == 12.5)
        runs.setRuntimeUsedToday(nil, for: Self.app)
        #expect(runs.runtimeUsedToday(Self.app) == nil)
    }
}
