/*
Abstract:
End-to-end: WWDC Slides, the sample's managed asset packs: the session list before the first launch, the transcripts after, the slides when a session is opened, and removal.
*/

import Foundation
import Testing
import TestSupport

@Suite("The WWDC Slides sample", .serialized, .timeLimit(.minutes(3)))
struct SlidesSampleTests {
    static let bundleIdentifier = "com.example.apple-samplecode.WWDC-Slides"

    @Test("Installed, the app lists the essential pack's sessions; opening one downloads its year's slides once; remove deletes them")
    func endToEnd() async throws {
        let scenario = try Scenario()
        try await withAssetServer(sessions: 3, arguments: ["--access-log", scenario.accessLog.path]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let plist = try infoPlistCopy(of: "App/WWDCSlides/Info.plist", setting: "BAManifestURL",
                                              to: server.url("/asset-packs/manifest.json"), at: scenario.outputFolder.appending(path: "Info.plist"))
                let extensionPlist = SampleIdentity.repositoryRoot.appending(path: "Extension/WWDCSlides/Info.plist")
                let install = try await scenario.runTool(["install", "--app-plist", plist.path, "--extension-plist", extensionPlist.path, "--wait"])
                #expect(install.status == .exited(0), "\(install.standardError)")
                #expect(install.standardOutput.contains("1 of 1 essential asset pack(s) (24.7 KiB) finished"),
                        "\(install.standardOutput)")

                // The session list is an essential pack: there before the first launch.
                let list = try await app(["list"], in: scenario)
                #expect(list.split(separator: "\n").count == 3, "\(list)")
                #expect(list.contains("wwdc23-10108  slides on demand  What's new in Background Assets"), "\(list)")
                // The transcripts are a prefetch pack: the system installs them without the app.
                _ = try await poll(interval: .milliseconds(100), "the transcripts installed") {
                    let packs = try await scenario.runTool(["packs", "-b", Self.bundleIdentifier]).standardOutput
                    return packs.contains("Transcripts version=1 policy=prefetch(firstInstallation) state=installed") ? packs : nil
                }
                let log = try String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)
                #expect(log.contains("The system asks whether to download Transcripts version 1: yes."), "the extension was asked")

                let opened = try await app(["open", "wwdc23-10108"], in: scenario)
                let lines = opened.split(separator: "\n").map(String.init)
                #expect(lines.first == "Downloading Slides-WWDC23 version 1, 144.6 KiB.", "\(opened)")
                #expect(lines.contains("Slides-WWDC23 version 1 is on this device."), "\(opened)")
                #expect(lines.contains("Transcript: What's new in Background Assets"), "\(opened)")
                let slides = try #require(lines.first { $0.hasPrefix("Slides: ") })
                #expect(slides.hasSuffix("/Slides-WWDC23/current/Slides/wwdc23-10108.pdf (48.0 KiB)"), "\(slides)")
                let path = String(slides.dropFirst("Slides: ".count).dropLast(" (48.0 KiB)".count))
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 48 * 1024)

                // Another session of the same year reads the same pack, without the network.
                let second = try await app(["open", "wwdc23-10006"], in: scenario)
                #expect(second.hasPrefix("Slides-WWDC23 is on this device.\nwwdc23-10006  "), "\(second)")
                #expect(try scenario.accessEntries(for: "/asset-packs/Slides-WWDC23.aar").count == 1, "one download")

                let removed = try await app(["remove", "Slides-WWDC23"], in: scenario)
                #expect(removed == "Removed Slides-WWDC23 from this device.\n")
                #expect(!FileManager.default.fileExists(atPath: path))
                #expect(try await app(["list"], in: scenario).contains("wwdc23-10108  slides on demand"))
            }
        }
    }

    @Test("Before the install, the app names the install command; an unknown session is named")
    func notInstalledAndUnknownSession() async throws {
        let scenario = try Scenario()
        let app = try ProductsDirectory.executable(named: "wwdc-slides").path
        let notInstalled = try await runCommand(app, arguments: ["list"], environment: scenario.environment)
        #expect(notInstalled.status == .exited(1))
        #expect(notInstalled.standardError.contains("--app-plist App/WWDCSlides/Info.plist"), "\(notInstalled.standardError)")
        let usage = try await runCommand(app, arguments: ["open"], environment: scenario.environment)
        #expect(usage.status == .exited(64), "\(usage.standardError)")
        #expect(usage.standardError.contains("SESSION-ID"), "\(usage.standardError)")
    }

    /// Runs the app to completion and returns what it printed, failing unless it exits 0.
    private func app(_ arguments: [String], in scenario: Scenario) async throws -> String {
        let result = try await runCommand(try ProductsDirectory.executable(named: "wwdc-slides").path,
                                          arguments: arguments, environment: scenario.environment)
        guard result.status == .exited(0) else {
            throw TestSupportError("wwdc-slides \(arguments) ended with \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }
}
