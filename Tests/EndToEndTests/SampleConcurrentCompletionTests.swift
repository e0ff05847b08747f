/*
Abstract:
End-to-end: the app and the extension handle finished downloads at the same time, and every session lands exactly once.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Hand finished downloads to the app and the extension at once")
    struct SampleConcurrentCompletionTests {
        /// Bytes per second per response: a session of 12–20 KB takes one to two and a half seconds.
        static let throttle = 8_192
        /// Eight background downloads at a time: the sessions arrive in waves for several seconds.
        static let configuration: [String: Double] = ["maxConcurrentDownloads": 8]

        @Test("The app and the extension moving finished sessions at once never lose or double-move one")
        func appAndExtensionShareCompletions() async throws {
            let throttled = ["--throttle", String(Self.throttle)]
            // The probe speaks as the installed app's extension without being its executable: a test
            // program the identity check would refuse, let in by the device's test setting.
            try await withSampleDevice(
                sessions: 48, sessionSize: 16_384, serverArguments: throttled, configuration: Self.configuration,
                trustsClientClaims: true
            ) { device in
                let sessions = try device.catalog()
                try await device.install()

                // A third process holds the app's exclusive control, as an extension: while the app
                // itself holds it, finished files wait for the app instead of going to the extension.
                // The first background downloads finish with no app connected: the extension is
                // launched for them and waits for control with its finished files in hand. The app is
                // opened meanwhile, and the holder lets go once it is connected, so the extension moves
                // its files while the app receives finishes of its own.
                let essential = Set(sessions.filter(\.essential).map(\.id))
                var holder = ProcessInfo.processInfo.environment.merging(device.scenario.environment) { $1 }
                holder["BA_BUNDLE_IDENTIFIER"] = SampleDevice.bundleIdentifier
                holder["BA_PROCESS_ROLE"] = "extension"
                let probe = try ChildProcess.launch(
                    executableURL: try ProductsDirectory.executable(named: "exclusive-control-probe"),
                    arguments: ["--until-sigusr1"], environment: holder)
                let isApp = { (entry: TraceEntry) in
                    entry.from == "app" && entry.event == "connected" && entry.detail != "pid \(probe.pid)"
                }
                let app: CommandResult
                do {
                    _ = try await probe.waitForLine { $0.hasPrefix("enter") }
                    // Handed to the extension, not only finished: an app that connects before the
                    // service has given the file to the extension would take it instead.
                    try await poll(until: {
                        device.trace().contains {
                            $0.to == "extension" && $0.event == "backgroundDownload(_:finishedWithFileURL:)"
                                && !essential.contains($0.download ?? "")
                        }
                    }, interval: .milliseconds(5), "a finished background download to reach the extension")
                    async let run = device.runApp()
                    try await poll(until: { device.trace().contains(where: isApp) },
                                   interval: .milliseconds(5), "the app to connect")
                    try probe.signal(SIGUSR1)
                    app = try await run
                    #expect(try await probe.waitForExit().isSuccess, "\(probe.diagnostics())")
                } catch {
                    await probe.terminate()
                    throw error
                }
                #expect(app.status == .exited(0), "\(app.standardOutput)\n\(app.standardError)")
                #expect(app.standardOutput.contains("All \(sessions.count) sessions are on the device."),
                        "\(app.standardOutput)")
                // The extension may still be finishing its last call; the service ends it once idle.
                try await poll(until: { !device.trace().isEmpty && extensionIsDone(device.trace()) },
                               interval: .milliseconds(50), "the extension to end")

                // Both processes handled finishes, and their work overlapped in time.
                let trace = device.trace()
                let byExtension = trace.finishesHandledByExtension
                let byApp = trace.finishesHandledByApp
                #expect(byExtension.contains { !essential.contains($0) }, "\(byExtension)")
                #expect(!byApp.isEmpty, "the app handled no finished download: \(trace.map(\.event))")
                // The extension was still moving files while the app, connected, received finished
                // downloads: it moves them while it holds control, which the trace records when granted.
                let appConnected = try #require(trace.firstIndex(where: isApp))
                let appLastFinish = try #require(trace.lastIndex {
                    $0.event == "finishedWithFileURL" && $0.to.split(separator: "+").contains("app")
                })
                let movedMeanwhile = trace[appConnected..<max(appConnected, appLastFinish)].contains {
                    $0.from == "extension" && $0.event == "acquireExclusiveControl"
                }
                #expect(movedMeanwhile, "the extension moved no file while the app was handling finishes")

                // Each session was downloaded once, and moved into place by exactly one of them.
                let handOvers = byApp + byExtension
                let doubled = sessions.map(\.id).filter { id in handOvers.filter { $0 == id }.count != 1 }
                let log = try device.accessLog()
                let refetched = sessions.filter { session in
                    log.filter { $0.path == session.path && $0.status < 300 }.reduce(0) { $0 + $1.bytes }
                        != Int64(session.size)
                }.map(\.path)
                let story = doubled.first.map { id in
                    trace.filter { $0.download == id }.map { "\($0.event) → \($0.to) \($0.detail ?? "")" }
                } ?? []
                #expect(doubled.isEmpty, """
                    \(doubled.count) of \(sessions.count) sessions were handed over more than once: \(doubled); \
                    the first one's trace: \(story)
                    """)
                let refetchStory = refetched.first.map { path in
                    let id = sessions.first { $0.path == path }?.id ?? ""
                    return trace.filter { $0.download == id }.map { "\($0.time) \($0.from)→\($0.to) \($0.event) \($0.detail ?? "")" }
                        + log.filter { $0.path == path }.map { "access \($0.status) \($0.bytes)" }
                } ?? []
                #expect(refetched.isEmpty, "\(refetched.count) sessions were fetched more than once: \(refetched) \(refetchStory)")

                // Every session is present exactly once, verified, and nothing else is left in the app group.
                let digests = try await device.sessionFileDigests()
                let expected = Dictionary(uniqueKeysWithValues: sessions.map {
                    (device.fileURL(of: $0).lastPathComponent, $0.sha256)
                })
                #expect(digests == expected)
                let parked = device.contents(of: device.temporaryFolder)
                #expect(parked.isEmpty, "the extension left files in Temporary: \(parked)")
                try await poll(until: { device.contents(of: device.handOverFolder).isEmpty },
                               "the hand-over folder to empty: \(device.contents(of: device.handOverFolder))")
                let leftovers = Set(device.contents(of: device.caches))
                    .subtracting(["manifest.json", "Sessions", "Temporary", "com.apple.BackgroundAssets"])
                #expect(leftovers.isEmpty, "\(leftovers.sorted())")
                let listed = try await device.listedSessions()
                #expect(listed.count == sessions.count && listed.allSatisfy { $0.state == "downloaded" }, "\(listed)")
            }
        }
    }
}

/// Whether every extension the trace shows launched has exited.
private func extensionIsDone(_ trace: [TraceEntry]) -> Bool {
    trace.filter { $0.event == "extensionLaunched" }.count == trace.filter { $0.event == "extensionExited" }.count
}
