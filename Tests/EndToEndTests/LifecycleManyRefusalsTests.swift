/*
Abstract:
End-to-end: an answer of more downloads than a part holds, every one refused by the allowance, reaches the extension as one failure each, past the thousand its call queue holds.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Refuse more returned downloads than a part holds")
    struct LifecycleManyRefusalsTests {
        @Test("1,500 downloads returned in parts and refused by the allowance each reach the extension as a failure, once")
        func everyRefusalReachesTheExtension() async throws {
            // Over the 1,000 of a part and over the 1,000 notices the call queue holds, so both the
            // parts and the notices waiting in a file are on the path.
            let count = 1_500
            try await withLifecycle(sessions: count, sessionSize: 1_024) { life in
                var life = life
                life.bundle.downloadAllowance = 1
                life.bundle.essentialDownloadAllowance = 1
                var behaviour = life.behaviour()
                behaviour.essential = []
                try life.write(behaviour)
                try await life.installAndWait()

                let calls = try await life.waitForExtensionCalls("a failure for every download") {
                    $0.calls("failed").count >= count
                }
                let failures = calls.calls("failed")
                #expect(failures.count == count, "each refusal once")
                #expect(calls.downloads("failed") == Set(life.sessions.map(\.id)))
                #expect(failures.allSatisfy { $0.errorCode == BAError.Code.downloadWouldExceedAllowance.rawValue })
                // Sent without waiting for each return, and run in the order they were sent.
                let trace = life.trace()
                let sent = trace.filter { $0.event == "backgroundDownload(_:failedWithError:)" && $0.to == "extension" }
                #expect(failures.map(\.download) == sent.map(\.download), "the extension ran them in the order they were sent")
                var out = 0
                var mostOut = 0
                for entry in trace {
                    if entry.event == "backgroundDownload(_:failedWithError:)" && entry.to == "extension" { out += 1 }
                    if entry.event == "return" && entry.detail?.hasPrefix("backgroundDownload(_:failedWithError:)") == true { out -= 1 }
                    mostOut = max(mostOut, out)
                }
                #expect(mostOut > 1 && mostOut <= 32, "at most a window of notices out at once, and more than one: \(mostOut)")
                let scheduled = trace.filter { $0.event == "scheduleReturnedDownloads" }.map(\.detail)
                #expect(scheduled == ["0 scheduled, \(count) refused"], "one line for the whole answer")
                // The notices that waited in a file were all read back, and the file went with them.
                let notices = DevicePaths(root: life.scenario.deviceRoot).stagingDirectory.appending(path: "notices")
                let left = (try? FileManager.default.contentsOfDirectory(atPath: notices.path)) ?? []
                #expect(left.isEmpty, "\(left)")
            }
        }
    }
}
