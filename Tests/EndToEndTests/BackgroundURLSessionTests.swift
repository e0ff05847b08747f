/*
Abstract:
Background URL sessions with the real processes: transfers that outlive the app, the relaunch for events, resume data, refusals, force-quit.
*/

import BackgroundAssetsIPC
import Foundation
import LifecycleTestKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Background URL sessions", .serialized, .timeLimit(.minutes(3)))
struct BackgroundURLSessionTests {
    static let session = LifecycleScenario.urlSession
    /// About half of the archive the scenario's server makes (192 KiB): where the relays hold it.
    static let halfArchive = 98_304

    @Test("A download continues after the app is SIGKILLed, and its file reaches the next process that makes the session")
    func continuesAfterTheAppIsKilled() async throws {
        // The 192 KiB archive comes at 16 KiB/s, so the app hears of bytes while they flow, and
        // its second half waits in the relay: the app is killed in the middle, however late a busy
        // machine lets the test see the first bytes.
        try await withSessionApp(serverArguments: ["--throttle", "16384"]) { scenario in
            let relay = try HoldingRelay(to: scenario.server.port, holdingAfter: Self.halfArchive)
            defer { relay.stop() }
            let url = relay.url(LifecycleScenario.archivePath)
            let first = try scenario.launchSessionApp(["--no-launch-events", "--download", url.absoluteString])
            try await scenario.waitForSessionRecord("its first bytes") { $0.event == "didWriteData" }
            try first.signal(SIGKILL)
            _ = try await first.waitForExit()
            relay.release()
            // The transfer belongs to the service: it finishes with no process of the app running.
            do {
                try await poll(until: {
                    scenario.trace().contains { $0.event == "didFinishDownloadingTo" && $0.detail?.contains("kept until") == true }
                }, "the file kept for the app")
            } catch {
                let trace = scenario.trace().map { "\($0.event) \($0.download ?? "") \($0.detail ?? "")" }
                Issue.record("\(error)\ntrace:\n\(trace.joined(separator: "\n"))\nrecords: \(scenario.sessionRecords().map(\.event))")
                throw error
            }

            let second = try scenario.launchSessionApp(["--no-launch-events", "--list", "--wait"])
            #expect(try await second.waitForExit().isSuccess)
            let records = scenario.sessionRecords().filter { $0.pid == second.pid }
            let listed = try #require(records.first { $0.event == "listed" })
            let events = records.map(\.event)
            if listed.tasks != [1] {
                // The list is made once the session is attached; a task whose file and end reached the
                // delegate before that is over, and rightly not listed.
                let ended = try #require(events.firstIndex(of: "didCompleteWithError"), "\(events)")
                let listing = try #require(events.firstIndex(of: "listed"))
                #expect(listed.tasks == [] && ended < listing, "getAllTasks gives the task the killed process made: \(events)")
            }
            let finished = try #require(records.first { $0.event == "didFinishDownloadingTo" })
            #expect(finished.session == Self.session && finished.task == 1)
            let moved = URL(fileURLWithPath: try #require(finished.file))
            #expect(try Data(contentsOf: moved) == Data(contentsOf: scenario.server.catalogURL.appending(path: String(LifecycleScenario.archivePath.dropFirst()))))
            let order = records.map(\.event).filter { ["didFinishDownloadingTo", "didCompleteWithError"].contains($0) }
            #expect(order == ["didFinishDownloadingTo", "didCompleteWithError"], "the file comes before the task's end: \(order)")
            #expect(records.first { $0.event == "didCompleteWithError" }?.code == nil)
        }
    }

    @Test("The app is relaunched for its session's events: the file, then urlSessionDidFinishEvents, and the launch ends after the handler")
    func relaunchForEvents() async throws {
        try await withSessionApp(serverArguments: ["--throttle", "16384"]) { scenario in
            let relay = try HoldingRelay(to: scenario.server.port, holdingAfter: Self.halfArchive)
            defer { relay.stop() }
            try await killDuringDownload(scenario, through: relay)
            relay.release()
            let handled = try await scenario.waitForSessionRecord("the relaunch's handler called") { $0.event == "callingCompletionHandler" }
            try await checkRelaunch(handled, in: scenario)
        }
    }

    /// Starts a download in the app through the relay and SIGKILLs the app once bytes arrived.
    private func killDuringDownload(_ scenario: LifecycleScenario, through relay: HoldingRelay) async throws {
        let url = relay.url(LifecycleScenario.archivePath)
        let first = try scenario.launchSessionApp(["--download", url.absoluteString])
        try await scenario.waitForSessionRecord("its first bytes") { $0.event == "didWriteData" }
        try first.signal(SIGKILL)
        _ = try await first.waitForExit()
    }

    /// Checks what the relaunched process recorded, and that its launch ended after the handler.
    private func checkRelaunch(_ handled: URLSessionTestRecord, in scenario: LifecycleScenario) async throws {
        #expect(handled.background, "the service launched the app in the background")
        let pid = handled.pid
        let relaunch = scenario.sessionRecords().filter { $0.pid == pid }.map(\.event)
        let expected = ["launched", "handleEventsForBackgroundURLSession", "didFinishDownloadingTo", "didCompleteWithError",
                        "urlSessionDidFinishEvents", "callingCompletionHandler"]
        #expect(relaunch == expected, "\(relaunch)")
        // Nothing else keeps the app: the service ends its background launch once the handler is called.
        try await poll(until: { !isProcessAlive(pid) }, "the background launch to end")
        let events = scenario.trace().map(\.event)
        let handler = events.firstIndex(of: "completionHandler") ?? Int.max
        let done = events.firstIndex(of: "backgroundLaunchDone") ?? -1
        #expect(handler < done, "the launch ended after the handler was called: \(events)")
        let reason = "for the events of background session \(Self.session)"
        let launches = scenario.trace().filter { $0.event == "launchInBackground" }.compactMap(\.detail)
        #expect(launches.contains { $0.contains(reason) }, "\(launches)")
    }

    @Test("Force-quitting the app cancels its background transfers with Apple's reason, and it is not relaunched for them")
    func forceQuit() async throws {
        try await withSessionApp(serverArguments: ["--throttle", "65536"]) { scenario in
            // Held halfway, the transfer is still running when the force-quit comes, however late.
            let relay = try HoldingRelay(to: scenario.server.port, holdingAfter: Self.halfArchive)
            defer { relay.stop() }
            let url = relay.url(LifecycleScenario.archivePath)
            let running = try scenario.launchSessionApp(["--download", url.absoluteString])
            try await scenario.waitForSessionRecord("its first bytes") { $0.event == "didWriteData" }
            let result = try await scenario.tool(["simulate", "--force-quit", "-b", scenario.bundle.bundleIdentifier])
            #expect(result.standardOutput.contains("Force-quit"), "\(result.standardOutput)")
            _ = try await running.waitForExit()
            #expect(!(try await watch(for: .seconds(2)) { scenario.trace().contains { $0.event == "launchInBackground" } }),
                    "a force-quit app is not launched for its transfers")
            // Opened again by the person, it hears of the cancellation.
            let opened = try scenario.launchSessionApp(["--list", "--wait"])
            let exit = try? await opened.waitForExit()
            #expect(exit?.isSuccess == true)
            let completion = try #require(scenario.sessionRecords().first { $0.pid == opened.pid && $0.event == "didCompleteWithError" })
            #expect(completion.domain == "NSURLErrorDomain" && completion.code == -999)
            #expect(completion.reason == 0, "NSURLErrorCancelledReasonUserForceQuitApplication")
            // Decided now that the reopened app has its transfers' end, not by the window above:
            // events handed to the app when it opened were not handed to a background launch.
            #expect(!scenario.trace().contains { $0.event == "launchInBackground" }, "\(scenario.trace().map(\.event))")
        }
    }
}
