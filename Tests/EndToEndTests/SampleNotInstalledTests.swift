/*
Abstract:
End-to-end: the app started before any install refuses, says what to run, and leaves nothing behind.
*/

import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Open the app before installing it")
    struct SampleNotInstalledTests {
        @Test("The app refuses to run when it is not installed, names the install command, and schedules nothing")
        func refusesWhenNotInstalled() async throws {
            try await withSampleDevice { device in
                let app = try await device.runApp()
                #expect(app.status == .exited(1), "\(app.standardOutput)\n\(app.standardError)")
                let output = app.standardOutput + app.standardError
                #expect(output.contains("not installed") && output.contains("backgroundassets-debug install"), "\(output)")
                let status = try await device.tool(["status", "--json"]).standardOutput
                let object = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
                #expect((object?["downloads"] as? [Any])?.isEmpty == true, "\(status)")
                let requests = try device.accessLog()
                #expect(requests.isEmpty, "the app fetched from the server: \(requests)")
            }
        }
    }
}
