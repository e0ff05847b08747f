/*
Abstract:
End-to-end: a finished download goes to the app's delegate when one is connected, and launches the extension otherwise.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Deliver finished downloads")
    struct LifecycleCallbackRoutingTests {
        @Test("With no app connected, a finished download launches the extension, which moves the file")
        func finishedLaunchesExtension() async throws {
            try await withLifecycle(sessions: 3) { life in
                let session = try #require(life.otherSessions.first)
                var behaviour = life.behaviour()
                behaviour.essential = []
                behaviour.nonEssential = [session.id]
                try life.write(behaviour)
                try await life.installAndWait()

                let calls = try await life.waitForExtensionCalls("the finished download") {
                    $0.downloads("finished").contains(session.id)
                }
                let finished = try #require(calls.calls("finished").first { $0.download == session.id })
                #expect(finished.fileExists == true, "the file was not there during the call")
                #expect(finished.isExactlyURLDownload == true)
                #expect(finished.isEssential == false)
                let moved = try #require(finished.movedTo, "the extension could not move the file: \(finished)")
                #expect(try await sha256(of: URL(fileURLWithPath: moved)) == session.sha256)
                let delivered = life.trace().filter {
                    $0.event == "backgroundDownload(_:finishedWithFileURL:)" && $0.download == session.id
                }
                #expect(delivered.map(\.to) == ["extension"], "\(delivered)")
            }
        }

        @Test("With the app's delegate connected, the app gets the finished download and the extension is not launched")
        func finishedGoesToConnectedApp() async throws {
            try await withLifecycle(sessions: 4) { life in
                let sessions = life.otherSessions
                var behaviour = life.behaviour()
                // Nothing during the install: the downloads start from a periodic check once the app listens.
                behaviour.returnFor = [3]
                behaviour.essential = []
                behaviour.nonEssential = sessions.map(\.id)
                try life.write(behaviour)
                try await life.installAndWait()

                let app = try life.launchApp(["--finished", String(sessions.count), "--timeout", "60"])
                try await app.runScoped { app in
                    try await poll(until: { !life.appCalls().calls("delegateConnected").isEmpty || !app.isRunning },
                                   "the app's delegate to connect")
                    try #require(app.isRunning, "the app ended early: \(app.standardError())")
                    try await life.tool(["simulate", "--periodic-check", "--app-bundle-id", life.bundle.bundleIdentifier])
                    #expect(try await app.waitForExit(timeout: .seconds(60)) == .exited(0), "\(app.standardError())")
                }
                let appCalls = life.appCalls()
                #expect(appCalls.downloads("finished") == Set(sessions.map(\.id)), "\(appCalls)")
                for session in sessions {
                    #expect(try await sha256(of: life.filesFolder.appendingPathComponent(session.id)) == session.sha256)
                }
                // Wait for the periodic request's launch to end, then check nothing launched it again.
                _ = try await life.waitForExtensionCalls("the periodic launch to end") { calls in
                    guard let request = calls.contentRequests(3).first else { return false }
                    return !isProcessAlive(request.pid)
                }
                let launched = try await watch(for: .seconds(1)) { !life.extensionCalls().calls("finished").isEmpty }
                #expect(!launched, "the extension was launched for a download the app got: \(life.extensionCalls())")
                let delivered = life.trace().filter { $0.event == "backgroundDownload(_:finishedWithFileURL:)" }
                #expect(delivered.isEmpty, "\(delivered)")
            }
        }
    }
}
