/*
Abstract:
End-to-end: before the app's first launch its download allowance and domain allow list hold; afterwards they are lifted.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Respect the initial download restrictions")
    struct LifecycleAllowanceTests {
        @Test("Downloads over the allowance or outside the allow list are refused until the app has launched")
        func restrictionsLiftAfterLaunch() async throws {
            try await withLifecycle { life in
                let others = life.otherSessions
                try #require(others.count == 2)
                let (elsewhere, oversized) = (others[0], others[1])
                var life = life
                life.bundle.domainAllowList = ["127.0.0.1"]
                life.bundle.downloadAllowance = 1
                // The essential allowance may not exceed the download allowance; none is returned here.
                life.bundle.essentialDownloadAllowance = 1
                var behaviour = life.behaviour()
                behaviour.essential = []
                behaviour.nonEssential = [elsewhere.id, oversized.id]
                // localhost is this machine too, but not a host the allow list names.
                behaviour.hostOverrides = [elsewhere.id: "localhost"]
                try life.write(behaviour)
                try await life.installAndWait()

                let refused = try await life.waitForExtensionCalls("both refusals") {
                    $0.downloads("failed").isSuperset(of: [elsewhere.id, oversized.id])
                }
                let install = try #require(refused.contentRequests(1).first)
                #expect(install.restrictedDownloadSizeRemaining == 1)
                let failures = refused.calls("failed")
                let domain = try #require(failures.first { $0.download == elsewhere.id })
                #expect(domain.errorDomain == BAErrorDomain)
                #expect(domain.errorCode == BAError.Code.sessionDownloadDisallowedByDomain.rawValue, "\(domain)")
                let allowance = try #require(failures.first { $0.download == oversized.id })
                #expect(allowance.errorCode == BAError.Code.downloadWouldExceedAllowance.rawValue, "\(allowance)")
                #expect(try life.accessLog().allSatisfy { $0.path != elsewhere.path && $0.path != oversized.path })

                // The first launch lifts the restrictions; the next content request's downloads are accepted.
                let app = try life.launchApp()
                let launched = try await app.runScoped { app in try await app.waitForExit(timeout: .seconds(60)) }
                #expect(launched == .exited(0), "\(app.standardError())")
                _ = try await life.waitForAppStatus("the first launch") { $0["hasLaunched"] as? Bool == true }
                try await life.tool(["simulate", "--app-update", "--app-bundle-id", life.bundle.bundleIdentifier])

                let calls = try await life.waitForExtensionCalls("both downloads finished after the launch") {
                    $0.downloads("finished").isSuperset(of: [elsewhere.id, oversized.id])
                }
                let update = try #require(calls.contentRequests(2).first, "\(calls)")
                #expect(update.restrictedDownloadSizeRemaining == nil)
                #expect(update.restrictedEssentialDownloadSizeRemaining == nil)
                #expect(calls.calls("failed").count == failures.count, "a download failed again after the launch: \(calls)")
                for session in [elsewhere, oversized] {
                    #expect(try await sha256(of: life.filesFolder.appendingPathComponent(session.id)) == session.sha256)
                }
            }
        }
    }
}
