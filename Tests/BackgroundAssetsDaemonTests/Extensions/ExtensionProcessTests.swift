/*
Abstract:
Tests for launching an extension process: its exit is reported, its memory is readable, and kill works.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Extension process")
struct ExtensionProcessTests {
    @Test("An exit status and the environment reach the host")
    func exitStatus() async throws {
        let exit = Mutex<ExtensionProcess.Exit?>(nil)
        let process = try ExtensionProcess.launch(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exit $BA_TEST_STATUS"],
            environment: ["BA_TEST_STATUS": "3"]
        ) { ended in exit.withLock { $0 = ended } }
        try await poll(until: { exit.withLock { $0 } != nil }, "the process to exit")
        #expect(exit.withLock { $0 } == ExtensionProcess.Exit(processIdentifier: process.processIdentifier, status: 3, wasSignalled: false))
    }

    @Test("Kill ends a running process with SIGKILL, and its memory was readable while it ran")
    func killAndMemory() async throws {
        let exit = Mutex<ExtensionProcess.Exit?>(nil)
        let process = try ExtensionProcess.launch(
            executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], environment: [:]
        ) { ended in exit.withLock { $0 = ended } }
        let resident = try #require(process.residentBytes)
        #expect(resident > 0)
        process.kill()
        try await poll(until: { exit.withLock { $0 } != nil }, "the process to die")
        #expect(exit.withLock { $0 }?.wasSignalled == true)
        #expect(exit.withLock { $0 }?.status == SIGKILL)
        #expect(process.residentBytes == nil)
    }

    @Test("An executable that cannot start is an error naming it and why")
    func missingExecutable() throws {
        let error = try #require(throws: SpawnFailure.self) {
            try ExtensionProcess.launch(executable: URL(fileURLWithPath: "/nonexistent/extension"), environment: [:]) { _ in }
        }
        #expect(error.code == ENOENT)
        #expect("\(error)".contains("/nonexistent/extension"), "\(error)")
    }
}
