/*
Abstract:
End-to-end: after the system purges the app group's caches, the next launch notices and downloads the sessions again.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Download purged sessions again")
    struct SamplePurgeTests {
        @Test("After backgroundassets-debug purge, launching the app downloads every purged session again")
        func launchRefetchesPurgedSessions() async throws {
            try await withSampleDevice { device in
                let sessions = try device.catalog()
                try await device.install()
                let first = try await device.runApp()
                #expect(first.status == .exited(0), "\(first.standardOutput)\n\(first.standardError)")
                try await device.waitUntilVerified(sessions)

                try await device.tool(["purge", "--app-bundle-id", SampleDevice.bundleIdentifier])
                #expect(device.contents(of: device.sessionsFolder).isEmpty)
                #expect(try await device.listedSessions().isEmpty, "purge removed the local manifest too")
                let logBefore = try device.accessLog().count

                let second = try await device.runApp()
                #expect(second.status == .exited(0), "\(second.standardOutput)\n\(second.standardError)")
                #expect(second.standardOutput.contains("All \(sessions.count) sessions are on the device."),
                        "\(second.standardOutput)")
                let verified = try await device.verifiedSessions(of: sessions)
                #expect(verified == Set(sessions.map(\.id)))
                let listed = try await device.listedSessions()
                #expect(listed.count == sessions.count && listed.allSatisfy { $0.state == "downloaded" }, "\(listed)")

                // Each purged session was fetched again, once, in full.
                let requests = try device.accessLog().dropFirst(logBefore)
                for session in sessions {
                    let fetched = requests.filter { $0.path == session.path }
                    #expect(fetched.map(\.status) == [200], "\(session.path): \(fetched)")
                    #expect(fetched.map(\.bytes) == [Int64(session.size)], "\(session.path): \(fetched)")
                }
            }
        }
    }
}
