/*
Abstract:
Continued-processing tasks on the wire: their requests and progress round-trip, and the Info.plist's wildcard entries permit them.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Continued processing on the wire")
struct ContinuedProcessingWireTests {
    static let request = TaskRequestDescriptor(
        continuedProcessing: "com.example.sessions.export.7F3A", title: "Exporting sessions", subtitle: "0 of 12",
        strategy: .fail, requiredResources: 1)

    @Test("A continued-processing request keeps its title, subtitle, strategy and resources; other kinds send none")
    func requestRoundTrips() throws {
        let message = ClientMessage(id: 3, request: .tasks(.submitTaskRequest(Self.request)))
        #expect(try MessageCodecTests.roundTrip(message) == message)
        let json = String(decoding: try MessageCodec.encode(message), as: UTF8.self)
        #expect(json.contains(#""kind":"continuedProcessing""#) && json.contains(#""submissionStrategy":"fail""#))
        let refresh = String(
            decoding: try MessageCodec.encode(TaskRequestDescriptor(identifier: "com.example.sessions.refresh", kind: .appRefresh)),
            as: UTF8.self)
        #expect(!refresh.contains("title") && !refresh.contains("submissionStrategy") && !refresh.contains("requiredResources"))
    }

    @Test("Progress reports round-trip, and a running task's status carries its progress")
    func progressRoundTrips() throws {
        let progress = TaskProgress(completedUnitCount: 45, totalUnitCount: 100, title: "Exporting", subtitle: "45 of 100")
        let report = ClientMessage(id: 4, request: .tasks(.reportTaskProgress(taskID: 9, progress: progress)))
        #expect(try MessageCodecTests.roundTrip(report) == report)
        #expect(progress.summary == "45% (45 of 100)")
        #expect(TaskProgress(completedUnitCount: 3, totalUnitCount: 0, title: "", subtitle: "").summary == "3 done")
        let status = TaskStatus(
            bundleIdentifier: "com.example.sessions", request: Self.request, state: .running, summary: "running", progress: progress)
        #expect(try MessageCodec.decode(TaskStatus.self, from: MessageCodec.encode(status)) == status)
    }

    @Test("A prefix.* entry permits continued-processing identifiers that start with the app's bundle identifier")
    func wildcardEntries() {
        let permission = TaskPermission(
            permittedIdentifiers: ["com.example.sessions.refresh", "com.example.sessions.export.*", "other.app.*"],
            backgroundModes: ["fetch"])
        let app = "com.example.sessions"
        #expect(permission.refusalToSubmit("com.example.sessions.export.7F3A", kind: .continuedProcessing, bundleIdentifier: app) == nil)
        #expect(permission.refusalToRegister("com.example.sessions.export.7F3A") == nil)
        #expect(permission.refusalToRegister("com.example.sessions.export.*") == nil)
        #expect(permission.refusalToSubmit("com.example.sessions.export.*", kind: .continuedProcessing, bundleIdentifier: app) != nil)
        #expect(permission.refusalToSubmit("com.example.sessions.export.", kind: .continuedProcessing, bundleIdentifier: app) != nil)
        #expect(permission.refusalToSubmit("com.example.sessions.import.1", kind: .continuedProcessing, bundleIdentifier: app)?
            .contains("matches no entry ending in .*") == true)
        #expect(permission.refusalToSubmit("other.app.1", kind: .continuedProcessing, bundleIdentifier: app)?
            .contains("does not start with the app's bundle identifier") == true)
        // Wildcards are for continued processing only; a refresh request needs its exact identifier.
        #expect(permission.refusalToSubmit("com.example.sessions.export.1", kind: .appRefresh) != nil)
        #expect(permission.refusalToSubmit("com.example.sessions.refresh", kind: .appRefresh) == nil)
    }
}
