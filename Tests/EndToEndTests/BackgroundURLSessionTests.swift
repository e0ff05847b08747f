/*
Abstract:
Background URL sessions with the real processes: transfers that outlive the app, the relaunch for events, resume data, refusals, force-quit.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Background URL sessions", .serialized, .timeLimit(.minutes(3)))
struct BackgroundURLSessionTests {
    static let session = LifecycleScenario.urlSession

    @Test("A download continues after the app is SIGKILLed, and its file reaches the next process that makes the session")
    func continuesAfterTheAppIsKilled() async throws {
        try await withSessionApp(serverArguments: ["--throttle", "131072"]) { scenario in
            let url = scenario.server.url(LifecycleScenario.archivePath)
            let first = try scenario.launchSessionApp(["--no-launch-events", "--download", url.absoluteString])
            try await scenario.waitForSessionRecord("its first bytes") { $0.event == "didWriteData" }
            try first.signal(SIGKILL)
            _ = try await first.waitForExit(timeout: .seconds(10))
            // The transfer belongs to the service: it finishes with no process of the app running.
            try await poll(until: {
                scenario.trace().contains { $0.event == "didFinishDownloadingTo" && $0.detail?.contains("kept until") == true }
            }, timeout: .seconds(30), "the file kept for the app")

            let second = try scenario.launchSessionApp(["--no-launch-events", "--list", "--wait"])
            #expect(try await second.waitForExit(timeout: .seconds(30)).isSuccess)
            let records = scenario.sessionRecords().filter { $0.pid == second.pid }
            let listed = try #require(records.first { $0.event == "listed" })
            #expect(listed.tasks == [1], "getAllTasks gives the task the killed process made")
            let finished = try #require(records.first { $0.event == "didFinishDownloadingTo" })
            #expect(finished.session == Self.session && finished.task == 1)
            let moved = URL(fileURLWithPath: try #require(finished.file))
            #expect(try Data(contentsOf: moved) == Data(contentsOf: scenario.server.catalogURL.appending(path: String(LifecycleScenario.archivePath.dropFirst()))))
            let order = records.map(\.event).filter { ["didFinishDownloadingTo", "didCompleteWithError"].contains($0) }
            #expect(order == ["didFinishDownloadingTo", "didCompleteWithError"], "the file comes before the task's end: \(order)")
            #expect(records.first { $0.event == "didCompleteWithError" }?.code == nil)
        }
    }
}
