/*
Abstract:
End-to-end: uninstalling the app removes its downloads, its pending background tasks and its container.
*/

import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Uninstall the app")
    struct SampleUninstallTests {
        @Test("Uninstall leaves no download rows, no task requests and no container behind")
        func uninstallForgetsEverything() async throws {
            try await withSampleDevice { device in
                try await device.install()
                let app = try await device.runApp()
                #expect(app.status == .exited(0), "\(app.standardError)")
                func status() async throws -> [String: Any] {
                    let text = try await device.tool(["status", "--json"]).standardOutput
                    return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                }
                let before = try await status()
                #expect((before["downloads"] as? [Any])?.isEmpty == false)
                #expect((before["tasks"] as? [Any])?.isEmpty == false, "the app's refresh request")

                try await device.tool(["uninstall"])
                let after = try await status()
                #expect((after["downloads"] as? [Any])?.isEmpty == true, "\(after["downloads"] ?? "")")
                #expect((after["tasks"] as? [Any] ?? []).isEmpty, "\(after["tasks"] ?? "")")
                #expect((after["apps"] as? [Any])?.isEmpty == true)
                let container = device.scenario.deviceRoot.appending(path: "containers/\(SampleDevice.appGroupIdentifier)")
                #expect(!FileManager.default.fileExists(atPath: container.path))
            }
        }
    }
}
