/*
Abstract:
End-to-end: installing the sample puts its essential sessions in the app group before the app is ever opened.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Install the sample with its essential sessions")
    struct SampleEssentialInstallTests {
        @Test("Install downloads essential sessions before launch, verified against the manifest")
        func essentialSessionsArriveWithInstall() async throws {
            try await withSampleDevice { device in
                let essential = try device.catalog().filter(\.essential)
                #expect(essential.count == 2, "a generated catalog marks its first two sessions essential")

                try await device.install()
                // Checked at once: install --wait returning means a person may open the app now, and the
                // essential sessions are the ones it needs on its first screen.
                let verified = try await device.verifiedSessions(of: essential)
                let folder = device.contents(of: device.sessionsFolder)
                #expect(verified == Set(essential.map(\.id)),
                        "install --wait returned with \(verified.sorted()) verified; the folder holds \(folder)")

                // The extension moved them: the service handed each one to it, and the app became
                // launchable only once the extension had returned from every one of those calls.
                let trace = device.trace()
                #expect(!trace.showsAppLaunch, "\(trace.map(\.event))")
                #expect(Set(trace.finishesHandledByExtension).isSuperset(of: essential.map(\.id)),
                        "\(trace.finishesHandledByExtension)")
                let launchable = try #require(trace.firstIndex { $0.event == "appLaunchable" })
                for session in essential {
                    let returned = trace.firstIndex {
                        $0.from == "extension" && $0.event == "return" && $0.download == session.id
                            && $0.detail?.hasPrefix("backgroundDownload(_:finishedWithFileURL:)") == true
                    }
                    #expect(returned.map { $0 < launchable } == true,
                            "the app was launchable before the extension had moved \(session.id)")
                }

                // Eventually (the other sessions download in the background) the app group reads as the app
                // will see it: every essential session downloaded, fetched once from the server.
                try await device.waitUntilVerified(essential)
                let listed = try await device.listedSessions()
                for session in essential {
                    #expect(listed.first { $0.id == session.id }?.state == "downloaded", "\(listed)")
                    let requests = try device.accessLog().filter { $0.path == session.path }
                    #expect(requests.map(\.status) == [200], "\(session.path): \(requests)")
                }
            }
        }
    }
}
