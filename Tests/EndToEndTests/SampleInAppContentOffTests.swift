/*
Abstract:
End-to-end: with in-app content off, the install runs no extension and the first launch downloads every session.
*/

import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Install with in-app content off")
    struct SampleInAppContentOffTests {
        @Test("With in-app content off, the install downloads nothing and the first launch fetches every session")
        func firstLaunchDownloadsEverything() async throws {
            try await withSampleDevice { device in
                let sessions = try device.catalog()
                try await device.tool(["settings", "--in-app-content", "off"])
                try await device.install()
                #expect(device.contents(of: device.sessionsFolder).isEmpty)
                #expect(!device.trace().contains { $0.event == "extensionLaunched" })

                let run = try await device.runApp()
                #expect(run.status == .exited(0), "\(run.standardOutput)\n\(run.standardError)")
                try await device.waitUntilVerified(sessions)
            }
        }
    }
}
