/*
Abstract:
Background URL sessions with the real processes: a killed service resumes with Range, resume data continues from its offset, what a background session refuses, and https trust.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Background URL sessions: resuming and refusing", .serialized, .timeLimit(.minutes(3)))
struct BackgroundURLSessionResumeTests {
    /// The archive's bytes as the server serves them.
    static func archive(of scenario: LifecycleScenario) throws -> Data {
        try Data(contentsOf: scenario.server.catalogURL.appending(path: String(LifecycleScenario.archivePath.dropFirst())))
    }

    @Test("SIGKILL of the service mid-transfer: the restarted service resumes with a Range request, and the file is byte-exact")
    func serviceKilled() async throws {
        // The relay holds the 768 KiB archive after its first 400,000 bytes: the kill lands in the
        // middle of the transfer however late a busy machine lets the test see 200,000 on disk.
        try await withSessionApp(sessionSize: 262_144) { scenario in
            let relay = try HoldingRelay(to: scenario.server.port, holdingAfter: 400_000)
            defer { relay.stop() }
            let url = relay.url(LifecycleScenario.archivePath)
            let app = try scenario.launchSessionApp(["--no-launch-events", "--download", url.absoluteString, "--wait"])
            try await waitForDurableBytes(scenario.scenario, atLeast: 200_000)
            try await scenario.scenario.service.kill()
            #expect(!scenario.trace().contains { $0.event == "finishedWithFileURL" }, "the service was killed mid-transfer")
            relay.release()
            // The app's session connects again, which starts the service on demand; the transfer resumes.
            #expect(try await app.waitForExit(timeout: .seconds(60)).isSuccess, "\(scenario.sessionRecords().map(\.event))")
            let finished = try #require(scenario.sessionRecords().first { $0.event == "didFinishDownloadingTo" })
            #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(finished.file))) == Self.archive(of: scenario))
            let entries = try scenario.scenario.accessEntries(for: LifecycleScenario.archivePath)
            #expect(entries.first?.range == nil && entries.count >= 2, "\(entries)")
            let resumed = try #require(entries.last)
            let size = try Self.archive(of: scenario).count
            #expect(resumed.range?.hasPrefix("bytes=") == true, "\(entries)")
            #expect(resumed.status == 206 || (resumed.status == 416 && resumed.range == "bytes=\(size)-"), "\(entries)")
        }
    }

    @Test("cancel(byProducingResumeData:) then downloadTask(withResumeData:) continues from the same offset")
    func resumeData() async throws {
        try await withSessionApp(serverArguments: ["--throttle", "262144"], sessionSize: 262_144) { scenario in
            let url = scenario.server.url(LifecycleScenario.archivePath)
            let app = try scenario.launchSessionApp(["--download", url.absoluteString, "--cancel-resume-after", "100000", "--wait"])
            #expect(try await app.waitForExit(timeout: .seconds(60)).isSuccess, "\(scenario.sessionRecords().map(\.event))")
            let records = scenario.sessionRecords()
            let cancelled = try #require(records.first { $0.event == "cancelledWithResumeData" }, "\(records.map { "\($0.event) \($0.task ?? 0) \($0.bytes ?? -1) \($0.message ?? "")" })")
            #expect(cancelled.hasResumeData == true)
            let first = try #require(records.first { $0.event == "didCompleteWithError" && $0.task == cancelled.task })
            #expect(first.code == NSURLErrorCancelled && first.hasResumeData == true, "the error's user info carries the resume data")
            let resumed = try #require(records.first { $0.event == "resumedFromResumeData" })
            let offset = try #require(records.first { $0.event == "didResumeAtOffset" && $0.task == resumed.task }?.bytes)
            let told = try #require(cancelled.bytes)
            #expect(offset >= told, "the kept bytes include those the delegate was told of")
            // The transfer asked for exactly the bytes after those the resume data kept.
            let ranges = try scenario.scenario.accessEntries(for: LifecycleScenario.archivePath).compactMap(\.range)
            #expect(ranges == ["bytes=\(offset)-"], "\(ranges)")
            let finished = try #require(records.first { $0.event == "didFinishDownloadingTo" && $0.task == resumed.task })
            #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(finished.file))) == Self.archive(of: scenario))
        }
    }

    @Test("A data task on a background session is refused with Apple's reason")
    func dataTaskRefused() async throws {
        try await withSessionApp { scenario in
            let url = scenario.server.url(LifecycleScenario.archivePath)
            let app = try scenario.launchSessionApp(["--data-task", url.absoluteString, "--wait"])
            #expect(try await app.waitForExit().isSuccess)
            let completion = try #require(scenario.sessionRecords().first { $0.event == "didCompleteWithError" })
            #expect(completion.message?.contains("Data tasks are not supported in background sessions") == true, "\(completion)")
            #expect(try scenario.scenario.accessEntries(for: LifecycleScenario.archivePath).isEmpty, "nothing was fetched")
        }
    }

    @Test("An https server the device does not trust fails with the certificate's reason, and works after trust add")
    func untrustedServer() async throws {
        let tls = try TemporaryDirectory(prefix: "e2e-session-tls")
        try await withSessionApp { scenario in
            try await withAssetServer(arguments: ["--tls", "--tls-dir", tls.url.path]) { secure in
                let file = try CatalogFile.all(in: secure.catalogURL)[0]
                let url = secure.url(file.path)
                #expect(url.scheme == "https")
                let refused = try scenario.launchSessionApp(["--download", url.absoluteString, "--wait"])
                #expect(try await refused.waitForExit().isSuccess)
                let failure = try #require(scenario.sessionRecords().first { $0.pid == refused.pid && $0.event == "didCompleteWithError" })
                #expect(failure.domain == NSURLErrorDomain && failure.code == NSURLErrorServerCertificateUntrusted, "\(failure)")
                #expect(failure.message?.contains("certificate") == true, "\(failure)")

                _ = try await scenario.tool(["trust", "add", tls.url.appending(path: "ca.pem").path])
                let trusted = try scenario.launchSessionApp(["--download", url.absoluteString, "--wait"])
                #expect(try await trusted.waitForExit().isSuccess)
                let finished = try #require(scenario.sessionRecords().first { $0.pid == trusted.pid && $0.event == "didFinishDownloadingTo" })
                #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(finished.file))) == Data(contentsOf: file.file))
            }
        }
    }
}
