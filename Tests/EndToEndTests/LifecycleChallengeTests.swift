/*
Abstract:
End-to-end: an app delegate that implements only the async challenge form answers a server's 401.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Answer authentication challenges from the app")
    struct LifecycleChallengeTests {
        /// The asset server's Basic credentials for everything under `/protected/`.
        static let credential = "ada:lovelace"

        @Test("A delegate with only the async challenge form answers a 401 with a credential, and the download succeeds")
        func asyncFormAnswersChallenge() async throws {
            try await withLifecycle(sessions: 3, serverArguments: ["--auth", Self.credential]) { life in
                var behaviour = life.behaviour()
                behaviour.essential = []
                behaviour.nonEssential = []
                try life.write(behaviour)
                try await life.installAndWait()
                let content = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
                let protected = life.server.catalogURL.appendingPathComponent("protected", isDirectory: true)
                try FileManager.default.createDirectory(at: protected, withIntermediateDirectories: true)
                try content.write(to: protected.appendingPathComponent("secret.bin"))

                let app = try life.launchApp([
                    "--credential", Self.credential, "--foreground", life.server.url("/protected/secret.bin").absoluteString,
                    "--foreground-size", String(content.count), "--finished", "1", "--timeout", "30",
                ])
                let status = try await app.runScoped { app in try await app.waitForExit(timeout: .seconds(45)) }
                #expect(status == .exited(0), "\(app.standardError())")
                let calls = life.appCalls()
                #expect(calls.downloads("challenge") == ["foreground"], "\(calls)")
                #expect(calls.downloads("finished") == ["foreground"], "\(calls)")
                let moved = life.filesFolder.appendingPathComponent("foreground")
                #expect(try Data(contentsOf: moved) == content)
            }
        }
    }
}
