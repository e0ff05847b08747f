/*
Abstract:
End-to-end: what the extension is given in downloads(for:manifestURL:extensionInfo:), and what it may not do there.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Answer a content request")
    struct LifecycleContentRequestTests {
        @Test("The extension gets a read-only manifest copy, deleted after the call, and cannot schedule inside it")
        func manifestCopyAndScheduling() async throws {
            try await withLifecycle { life in
                var behaviour = life.behaviour()
                behaviour.scheduleInsideDownloads = true
                behaviour.essential = []
                behaviour.nonEssential = []
                try life.write(behaviour)
                try await life.installAndWait()

                let calls = try await life.waitForExtensionCalls("the install request") {
                    !$0.calls("returned").isEmpty
                }
                let request = try #require(calls.contentRequests(1).first)
                #expect(request.fileExists == true, "the manifest was missing during the call")
                let mode = try #require(request.fileMode, "the manifest's mode was not recorded")
                #expect(mode & 0o222 == 0, "the manifest copy must be read-only, its mode is \(String(mode, radix: 8))")
                #expect(request.bundleIdentifier == life.bundle.bundleIdentifier)
                #expect(request.role == "extension")
                // The extension runs from its installed bundle, so Bundle.main is Extension/Info.plist's.
                #expect(request.mainBundleIdentifier == life.bundle.extensionBundleIdentifier)
                // Before the first launch the allowances are reported; the sample's values are untouched yet.
                #expect(request.restrictedDownloadSizeRemaining == life.bundle.downloadAllowance)
                #expect(request.restrictedEssentialDownloadSizeRemaining == life.bundle.essentialDownloadAllowance)
                let manifestPath = try #require(request.path)
                try await poll(until: { !FileManager.default.fileExists(atPath: manifestPath) },
                               "the manifest copy to be deleted after the call")

                let attempt = try #require(calls.calls("scheduleInsideDownloads").first)
                #expect(attempt.errorDomain == BAErrorDomain)
                #expect(attempt.errorCode == BAError.Code.callFromExtensionNotAllowed.rawValue, "\(attempt)")
                #expect(try await statusDownloads(life.scenario).allSatisfy {
                    ($0[path: "download", "identifier"] as? String)?.hasPrefix("scheduled-inside-") != true
                })
            }
        }

        @Test("An essential download returned for a periodic check is refused with code 109 and delivered back")
        func essentialRefusedInPeriodicRequest() async throws {
            try await withLifecycle { life in
                let essential = try #require(life.essentialSessions.first)
                var behaviour = life.behaviour()
                behaviour.returnFor = [3]
                behaviour.essential = [essential.id]
                behaviour.nonEssential = []
                behaviour.essentialForPeriodic = true
                try life.write(behaviour)
                try await life.installAndWait()
                try await life.tool(["simulate", "--periodic-check", "--app-bundle-id", life.bundle.bundleIdentifier])

                let calls = try await life.waitForExtensionCalls("the refusal") {
                    $0.downloads("failed").contains(essential.id)
                }
                let returned = try #require(calls.calls("returned").first { $0.request == 3 })
                #expect(returned.returned == [essential.id])
                let failure = try #require(calls.calls("failed").first { $0.download == essential.id })
                #expect(failure.errorDomain == BAErrorDomain)
                #expect(failure.errorCode == BAError.Code.downloadEssentialDownloadNotPermitted.rawValue, "\(failure)")
                #expect(failure.isExactlyURLDownload == true)
                #expect(try life.accessLog().allSatisfy { $0.path != essential.path }, "a refused download was fetched")
            }
        }
    }
}
