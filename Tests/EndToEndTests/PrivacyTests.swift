/*
Abstract:
End-to-end: after an install and a launch, what the service keeps is readable by its owner only.
*/

import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Keep the device root private")
    struct PrivacyTests {
        @Test("After an install and a launch, the device root, the queue, the log, staging and the containers are the owner's only")
        func ownerOnly() async throws {
            try await withSampleDevice { device in
                let root = device.scenario.deviceRoot
                // Another process (a tool, the app) created the root with a looser mode; the service takes it back.
                chmod(root.path, 0o755)
                try await device.install()
                let result = try await device.runApp()
                #expect(result.status == .exited(0), "\(result.standardError)")

                var checked: [String] = []
                func expectPrivate(_ url: URL, line: Int = #line) {
                    var status = stat()
                    guard lstat(url.path, &status) == 0 else { return }
                    checked.append(url.lastPathComponent)
                    let mode = status.st_mode & 0o777
                    #expect(mode & 0o077 == 0, "\(url.path) is \(String(mode, radix: 8))",
                            sourceLocation: SourceLocation(fileID: #fileID, filePath: #filePath, line: line, column: 1))
                }
                let system = root.appendingPathComponent("system", isDirectory: true)
                for folder in ["", "system", "staging", "run", "containers"] {
                    expectPrivate(root.appendingPathComponent(folder, isDirectory: true))
                }
                let containers = root.appendingPathComponent("containers", isDirectory: true)
                for container in try FileManager.default.contentsOfDirectory(atPath: containers.path) {
                    expectPrivate(containers.appendingPathComponent(container, isDirectory: true))
                }
                for file in try FileManager.default.contentsOfDirectory(atPath: system.path) {
                    expectPrivate(system.appendingPathComponent(file))
                }
                #expect(checked.contains("queue.sqlite"), "\(checked)")
                #expect(checked.contains("queue.sqlite-wal"), "\(checked)")
                #expect(checked.contains("log"), "\(checked)")
            }
        }
    }
}
