/*
Abstract:
End-to-end: the sample's background refresh lands a session added after the first launch, with the app closed.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Refresh in the background with BGTaskScheduler")
    struct SampleBackgroundRefreshTests {
        /// The refresh task App/Info.plist permits.
        static var refresh: String { SampleIdentity.sample.refreshTaskIdentifier }

        @Test("The app's refresh task, run in the background, downloads a session added after its launch")
        func refreshLandsNewSession() async throws {
            try await withSampleDevice { device in
                let original = try await device.installAndRunToCompletion()

                // Each run submits a refresh for 15 minutes later; it waits for that.
                let pending = try await device.tool(["tasks"]).standardOutput
                #expect(pending.contains(Self.refresh) && pending.contains("refresh, pending"), "\(pending)")

                let added = try await addSession(id: "wwdc23-10260", size: 19_000, to: device.server.catalogURL)
                let traceBefore = device.trace().count
                try await device.tool(["simulate", "--launch-task", Self.refresh])
                do {
                    try await device.waitUntilVerified([added])
                } catch {
                    let events = device.trace().dropFirst(traceBefore).map { "\($0.event) \($0.detail ?? "")" }
                    let log = (try? String(contentsOf: device.scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)) ?? ""
                    Issue.record("trace: \(events)\nlog: \(log.split(separator: "\n").suffix(30).joined(separator: "\n"))")
                    throw error
                }

                // The system launched the app for the task; the task fetched the manifest and completed.
                // The task completes after the session is in place: waited for, not read at once.
                _ = try? await poll(until: { device.trace().dropFirst(traceBefore).contains { $0.event == "taskCompleted" } },
                                    "the refresh task to complete")
                let trace = Array(device.trace().dropFirst(traceBefore))
                for event in ["launchInBackground", "launchTask", "scheduleDownload", "taskCompleted"] {
                    #expect(trace.contains { $0.event == event }, "no \(event) in \(trace.map(\.event))")
                }
                #expect(trace.contains { $0.event == "taskCompleted" && $0.detail?.hasSuffix("success true") == true })
                // The refresh submitted the next one before it ended.
                let next = try await device.tool(["tasks"]).standardOutput
                #expect(next.contains(Self.refresh), "\(next)")
                let listed = try await device.listedSessions()
                #expect(listed.map(\.id) == original.map(\.id) + [added.id])
            }
        }
    }
}
