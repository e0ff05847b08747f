/*
Abstract:
Background uploads with the real processes: a file from the app group sent to asset-server's uploads folder, after the app has gone too.
*/

import BackgroundAssetsIPC
import Foundation
import LifecycleTestKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Background URL session uploads", .serialized, .timeLimit(.minutes(3)))
struct BackgroundURLSessionUploadTests {
    /// Writes a file of `count` patterned bytes into the app group container, where the app keeps it.
    func writeUpload(_ scenario: LifecycleScenario, named name: String, count: Int) throws -> (URL, Data) {
        let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ ($0 >> 9)) })
        try FileManager.default.createDirectory(at: scenario.container, withIntermediateDirectories: true)
        let file = scenario.container.appending(path: name)
        try bytes.write(to: file)
        return (file, bytes)
    }

    /// The copies of upload files the service keeps for the test app.
    func uploadCopies(_ scenario: LifecycleScenario) -> [String] {
        let folder = scenario.scenario.deviceRoot.appending(path: "staging/url-session-uploads/\(scenario.bundle.bundleIdentifier)")
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    /// What the server stored under its uploads folder for `name`.
    func stored(_ scenario: LifecycleScenario, _ name: String) -> Data? {
        try? Data(contentsOf: scenario.server.catalogURL.appending(path: "uploads/\(name)"))
    }

    @Test("An upload task sends its file: didSendBodyData, the server's answer in didReceive data, then didCompleteWithError")
    func uploadsFromFile() async throws {
        try await withSessionApp { scenario in
            let (file, bytes) = try writeUpload(scenario, named: "scores.bin", count: 600_000)
            let url = scenario.server.url("/uploads/scores.bin")
            let app = try scenario.launchSessionApp(["--no-launch-events", "--upload", "\(file.path)=\(url.absoluteString)", "--wait"])
            #expect(try await app.waitForExit(timeout: .seconds(60)).isSuccess)
            #expect(stored(scenario, "scores.bin") == bytes)

            let records = scenario.sessionRecords().filter { $0.pid == app.pid && $0.task == 1 }
            let events = records.map(\.event).filter { $0 != "resumed" }
            #expect(events.first == "didSendBodyData" && events.suffix(2) == ["didReceiveData", "didCompleteWithError"], "\(events)")
            let sent = records.filter { $0.event == "didSendBodyData" }
            #expect(sent.last?.bytes == 600_000 && sent.last?.message == "600000", "\(sent)")
            let answer = try #require(records.first { $0.event == "didReceiveData" })
            #expect(answer.status == 201)
            #expect(answer.message?.contains(#""size":600000"#) == true, "\(answer.message ?? "")")
            let completed = try #require(records.first { $0.event == "didCompleteWithError" })
            #expect(completed.code == nil && completed.status == 201, "\(completed)")
            // The system's copy of the file is gone with the task; the app's own file is the app's.
            #expect(uploadCopies(scenario).isEmpty)
            #expect(FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test("An upload continues after the app is SIGKILLed, and the relaunched app hears the answer")
    func continuesAfterTheAppIsKilled() async throws {
        // The server answers 3 s after the body arrived, once it runs again after the kill.
        try await withSessionApp(serverArguments: ["--latency", "3000"]) { scenario in
            let (file, bytes) = try writeUpload(scenario, named: "save.bin", count: 200_000)
            let url = scenario.server.url("/uploads/save.bin")
            // The server is held still until the app has been killed, so the upload cannot end first,
            // however long the trace takes to show it began and the kill takes on a busy machine.
            try scenario.server.process.signal(SIGSTOP)
            defer { try? scenario.server.process.signal(SIGCONT) }
            let first = try scenario.launchSessionApp(["--upload", "\(file.path)=\(url.absoluteString)"])
            // Killed once the service sends the file, not before the app's resume() reached it.
            try await poll(until: { scenario.trace().contains { $0.event == "uploadDidBegin" } },
                           "the service to begin the upload")
            try first.signal(SIGKILL)
            _ = try await first.waitForExit()
            // The app's file may go too: the system sends the copy it made.
            try FileManager.default.removeItem(at: file)
            #expect(scenario.sessionRecords().filter { $0.event == "didCompleteWithError" }.isEmpty,
                    "the upload ended before the app was killed; the test proves nothing")
            try scenario.server.process.signal(SIGCONT)

            // The relaunch's last record: its didCompleteWithError alone may come before the rest is written.
            let handled = try await scenario.waitForSessionRecord("the relaunched app to call its completion handler") {
                $0.event == "callingCompletionHandler" && $0.pid != first.pid
            }
            let records = scenario.sessionRecords().filter { $0.pid == handled.pid }
            #expect(records.map(\.event) == ["launched", "handleEventsForBackgroundURLSession", "didReceiveData", "didCompleteWithError",
                                              "urlSessionDidFinishEvents", "callingCompletionHandler"], "\(records.map(\.event))")
            let completed = try #require(records.first { $0.event == "didCompleteWithError" })
            #expect(completed.background && completed.status == 201 && completed.code == nil, "\(completed)")
            #expect(stored(scenario, "save.bin") == bytes)
            #expect(uploadCopies(scenario).isEmpty, "the system's copy is gone")
        }
    }

    @Test("A file inside the device's system folders is refused with a reason, and nothing is sent")
    func systemFilesAreRefused() async throws {
        try await withSessionApp { scenario in
            let secret = scenario.scenario.deviceRoot.appending(path: "system/secret.txt")
            try Data("{}".utf8).write(to: secret)
            let url = scenario.server.url("/uploads/secret.json")
            let app = try scenario.launchSessionApp(["--no-launch-events", "--upload", "\(secret.path)=\(url.absoluteString)", "--wait"])
            #expect(try await app.waitForExit().isSuccess)
            let completed = try #require(scenario.sessionRecords().first { $0.event == "didCompleteWithError" })
            #expect(completed.domain == NSURLErrorDomain && completed.message?.contains("inside the device root") == true,
                    "\(completed)")
            #expect(stored(scenario, "secret.json") == nil)
        }
    }
}
