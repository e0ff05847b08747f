/*
Abstract:
End-to-end: an essential session that fails during the install is rescheduled, and arrives in the background.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Reschedule a failed essential session")
    struct SampleEssentialRetryTests {
        @Test("install --wait against an essential session answering 503 ends after essentialWait; the rescheduled download lands once the server recovers")
        func unavailableEssentialEndsTheInstall() async throws {
            let failing = CatalogSession.firstEssentialPath
            // 503 (with Retry-After: 1, clamped to retryMaxDelay, 0.5 s here) for the whole essential
            // wait (four attempts at most), then for a few retries of the rescheduled download.
            try await withSampleDevice(serverArguments: ["--fail", "\(failing)=503x8"], configuration: ["essentialWait": 2]) { device in
                let sessions = try device.catalog()
                let broken = try #require(sessions.first { $0.path == failing && $0.essential }, "\(sessions)")
                let started = ContinuousClock.now
                try await device.install()
                let took = ContinuousClock.now - started
                // It retries through the wait and ends once the next retry (the server's Retry-After: 1,
                // clamped to retryMaxDelay, 0.5 s here) would come after the 2 s essentialWait; the
                // rule itself is checked on a manual clock, in BoundedWaitTests.
                #expect(took >= .seconds(1.5), "the essential download gets the wait; install --wait ended after \(took)")
                try await device.waitUntilVerified([broken], timeout: .seconds(60))
                let statuses = try device.accessLog().filter { $0.path == failing }.map(\.status)
                #expect(statuses.filter { $0 == 503 }.count == 8 && statuses.last == 200, "\(statuses)")
            }
        }

        @Test("A failed essential session is rescheduled non-essential and moved into place without the app running")
        func failedEssentialArrivesInBackground() async throws {
            let failing = CatalogSession.firstEssentialPath
            // Only the install's request fails: the background download the extension schedules succeeds.
            try await withSampleDevice(serverArguments: ["--fail", "\(failing)=404x1"]) { device in
                let sessions = try device.catalog()
                let broken = try #require(sessions.first { $0.path == failing && $0.essential }, "\(sessions)")
                try await device.install()

                // The extension receives the failure, schedules removingEssential(), and when that
                // download finishes (with no app to tell) the service launches the extension to move it.
                try await device.waitUntilVerified([broken])
                try await device.waitUntilVerified(sessions)

                let trace = device.trace()
                #expect(!trace.showsAppLaunch, "the app ran: \(trace.map(\.event))")
                let events = trace.filter { $0.download == broken.id }
                let failed = try #require(
                    events.firstIndex { $0.to == "extension" && $0.event == "backgroundDownload(_:failedWithError:)" },
                    "the extension was not told of the failure: \(events.map(\.event))")
                let rescheduled = try #require(
                    events[failed...].firstIndex { $0.from == "extension" && $0.event == "scheduleDownload" },
                    "the extension did not schedule \(broken.id) again: \(events.map(\.event))")
                let finished = try #require(
                    events[rescheduled...].firstIndex {
                        $0.to == "extension" && $0.event == "backgroundDownload(_:finishedWithFileURL:)"
                    }, "the rescheduled download did not reach the extension: \(events.map(\.event))")
                #expect(events[rescheduled...finished].contains {
                    $0.event == "finishedWithFileURL" && $0.detail?.contains("launching the extension") == true
                }, "\(events.map { "\($0.event) → \($0.to): \($0.detail ?? "")" })")

                // The download that delivered it is the rescheduled one: no longer essential, and whole.
                let download = try #require(try await device.serviceDownloads()[broken.id])
                let whole = ServiceDownload(written: Int64(broken.size), isEssential: false, isForeground: false)
                #expect(download == whole)
                #expect(try device.accessLog().filter { $0.path == failing }.map(\.status) == [404, 200])
                let listed = try await device.listedSessions()
                #expect(listed.allSatisfy { $0.state == "downloaded" }, "\(listed)")
                #expect(device.contents(of: device.temporaryFolder).isEmpty)
            }
        }
    }
}
