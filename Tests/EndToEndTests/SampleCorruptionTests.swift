/*
Abstract:
End-to-end: a session served with the wrong bytes fails its SHA-256 check and never replaces anything in the app group.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Reject a corrupted session")
    struct SampleCorruptionTests {
        /// The third session of a generated catalog: the first one that is not essential.
        static let firstOtherPath = "/sessions/wwdc23-10164.mp4"

        @Test("A corrupted download is rejected by its SHA-256 and never moved into place")
        func corruptedSessionIsRejected() async throws {
            // The server flips bytes of two sessions, keeping their size: one essential (the
            // extension receives it during the install) and one the app downloads itself.
            let corrupted = [CatalogSession.firstEssentialPath, Self.firstOtherPath]
            let arguments = corrupted.flatMap { ["--corrupt", $0] }
            try await withSampleDevice(serverArguments: arguments) { device in
                let sessions = try device.catalog()
                let bad = sessions.filter { corrupted.contains($0.path) }
                let good = sessions.filter { !corrupted.contains($0.path) }
                #expect(bad.count == 2 && bad.contains(where: \.essential) && bad.contains { !$0.essential })

                try await device.install()
                let app = try await device.runApp()
                #expect(app.status == .exited(1), "\(app.standardOutput)\n\(app.standardError)")
                for session in bad {
                    #expect(app.standardError.contains(session.id), "\(app.standardError)")
                }
                let digests = try await device.sessionFileDigests()
                for session in bad {
                    let name = device.fileURL(of: session).lastPathComponent
                    #expect(digests[name] == nil, "\(name) was moved into place with SHA-256 \(digests[name] ?? "")")
                }
                // Every file in the sessions folder is a session's video, byte for byte.
                let expected = Dictionary(uniqueKeysWithValues: good.map {
                    (device.fileURL(of: $0).lastPathComponent, $0.sha256)
                })
                #expect(digests == expected)

                let listed = try await device.listedSessions()
                for session in sessions {
                    let state = listed.first { $0.id == session.id }?.state
                    #expect(state == (bad.contains(session) ? "remote" : "downloaded"), "\(session.id): \(listed)")
                }
                // Both the extension and the app checked a corrupted file, and both refused it.
                let trace = device.trace()
                let badEssential = try #require(bad.first { $0.essential })
                #expect(trace.finishesHandledByExtension.contains(badEssential.id),
                        "\(trace.finishesHandledByExtension)")
                #expect(Set(trace.finishesHandledByApp).isSuperset(of: bad.map(\.id)), "\(trace.finishesHandledByApp)")

                // The rejected files were deleted: nothing is left behind in the app group.
                try await poll(until: { device.contents(of: device.handOverFolder).isEmpty },
                               "the hand-over folder to empty: \(device.contents(of: device.handOverFolder))")
                // The extension deletes a refused file under exclusive control, after its entry point returned.
                try await poll(until: { device.contents(of: device.temporaryFolder).isEmpty },
                               "the temporary folder to empty: \(device.contents(of: device.temporaryFolder))")
            }
        }
    }
}
