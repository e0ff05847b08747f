/*
Abstract:
End-to-end: the service takes a connection for the app, extension or tool its executable is, not the one its hello claims.
*/

import BackgroundAssetsIPC
import Foundation
import LifecycleTestKit
import Testing
import TestSupport

@Suite("A connection is who the kernel says it is", .serialized, .timeLimit(.minutes(3)))
struct ClientIdentityTests {
    /// This test process's executable, as the service reads it from /proc.
    static func ownExecutable() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// The refusal a raw hello got, or `nil` when the service accepted it.
    static func refusal(root: URL, _ bundleIdentifier: String, role: Hello.Role) async throws -> String? {
        try await blocking {
            do {
                let client = try RawServiceClient(deviceRoot: root, bundleIdentifier: bundleIdentifier, role: role)
                client.close()
                return nil
            } catch let error as TestSupportError {
                return error.description
            }
        }
    }

    @Test("The real tool, installed app and extension are accepted; this process claiming to be them is refused by name")
    func impostorsAreRefused() async throws {
        try await withLifecycle { life in
            let root = life.scenario.deviceRoot
            // Before the install the app's identifier is nobody's, so this process may speak for it;
            // the install closes that connection, since this process is not the app.
            let early = try await blocking { [bundle = life.bundle] in
                try RawServiceClient(deviceRoot: root, bundleIdentifier: bundle.bundleIdentifier)
            }
            defer { early.close() }
            // The real tool installs; the real extension, launched by the service, answers the content request.
            try await life.installAndWait()
            #expect(life.trace().contains { $0.event == "extensionCheckIn" }, "the extension never checked in")

            // The real app, started from its build folder, moves into its bundle and passes the launch gate.
            let app = try life.launchApp()
            let status = try await app.waitForExit(timeout: .seconds(60))
            #expect(status.isSuccess, "\(app.diagnostics())")
            #expect(life.appCalls().contains { $0.entryPoint == "launchable" })

            let earlyAnswer = try await blocking { () -> ServerResponse? in try? early.send(.core(.fetchStatus)) }
            #expect(earlyAnswer == nil, "a connection made before the install still speaks for the app: \(String(describing: earlyAnswer))")

            let own = try Self.ownExecutable()
            let asApp = try #require(await Self.refusal(root: root, life.bundle.bundleIdentifier, role: .app))
            #expect(asApp.contains("says it is the app of"), "\(asApp)")
            #expect(asApp.contains(own), "\(asApp)")
            let asExtension = try #require(await Self.refusal(root: root, life.bundle.bundleIdentifier, role: .extension))
            #expect(asExtension.contains("says it is the extension of"), "\(asExtension)")
            let asTool = try #require(await Self.refusal(root: root, "com.example.backgroundassets-debug", role: .tool))
            #expect(asTool.contains("says it is the debug tool"), "\(asTool)")
            #expect(asTool.contains(own), "\(asTool)")

            // An identifier no installed app has is nobody's: the test process may speak for it.
            #expect(try await Self.refusal(root: root, "com.example.never-installed", role: .app) == nil)
        }
    }

    @Test("A device whose config.json sets trustsClientClaims lets raw clients in as the tool, and says so in its log")
    func testSettingLetsRawClientsIn() async throws {
        let root = try TemporaryDeviceRoot()
        defer { root.remove() }
        try await withService(deviceRoot: root.url, configuration: quickConfiguration, trustsClientClaims: true) { service in
            #expect(try await Self.refusal(root: root.url, "com.example.backgroundassets-debug", role: .tool) == nil)
            try await poll(until: { service.process.standardError().contains("trustsClientClaims is on") },
                           "the service to log that trustsClientClaims is on")
            try await poll(until: { service.process.standardError().contains("only because trustsClientClaims is on") },
                           "the service to log the hello it let in only because of the setting")
        }
    }
}
