/*
Abstract:
End-to-end: a failed essential download still lets the app launch, reaches the extension, and can be retried in the background.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Handle a failed essential download")
    struct LifecycleEssentialFailureTests {
        @Test("An essential download the server refuses makes the app launchable and reaches the extension")
        func failedEssentialIsDelivered() async throws {
            let failing = CatalogSession.firstEssentialPath
            try await withLifecycle(sessions: 3, serverArguments: ["--fail", "\(failing)=404x100"]) { life in
                let broken = try #require(life.essentialSessions.first { $0.path == failing }, "\(life.sessions)")
                let intact = try #require(life.essentialSessions.first { $0.path != failing })
                try life.write(life.behaviour())
                try await life.installAndWait()

                let status = try #require(try await life.appStatus())
                #expect(status["state"] as? String == "launchable")
                #expect(status[path: "progress", "essentialFailed"] as? Int == 1, "\(status)")
                #expect(status[path: "progress", "essentialFinished"] as? Int == 1, "\(status)")

                let calls = try await life.waitForExtensionCalls("the essential outcomes") {
                    $0.downloads("failed").contains(broken.id) && $0.downloads("finished").contains(intact.id)
                }
                let failure = try #require(calls.calls("failed").first { $0.download == broken.id })
                #expect(failure.isEssential == true)
                #expect(failure.isExactlyURLDownload == true)
                #expect(failure.errorDomain != nil, "\(failure)")
                let finished = try #require(calls.calls("finished").first { $0.download == intact.id })
                #expect(finished.pid == failure.pid, "the essential outcomes came in two launches: \(calls)")
                #expect(try life.accessLog().filter { $0.path == failing }.map(\.status) == [404])
            }
        }

        @Test("A failed essential download scheduled again with removingEssential() finishes in the background")
        func failedEssentialIsRescheduled() async throws {
            let failing = CatalogSession.firstEssentialPath
            // Only the first request fails: the background retry the extension schedules succeeds.
            try await withLifecycle(sessions: 3, serverArguments: ["--fail", "\(failing)=404x1"]) { life in
                let broken = try #require(life.essentialSessions.first { $0.path == failing })
                var behaviour = life.behaviour()
                behaviour.rescheduleFailedEssential = true
                try life.write(behaviour)
                try await life.installAndWait()

                let calls = try await life.waitForExtensionCalls("the rescheduled download finished") { calls in
                    calls.calls("finished").contains { $0.download == broken.id && $0.isEssential == false }
                }
                let failure = try #require(calls.calls("failed").first { $0.download == broken.id })
                #expect(failure.isEssential == true)
                let rescheduled = try #require(calls.calls("rescheduled").first { $0.download == broken.id })
                #expect(rescheduled.errorCode == nil, "scheduleDownload(removingEssential()) threw: \(rescheduled)")
                let moved = life.filesFolder.appendingPathComponent(broken.id)
                #expect(try await sha256(of: moved) == broken.sha256)
                #expect(try life.accessLog().filter { $0.path == failing }.map(\.status) == [404, 200])
            }
        }
    }
}
