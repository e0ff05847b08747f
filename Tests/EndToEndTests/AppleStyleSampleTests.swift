/*
Abstract:
End to end: Apple-style code, written from Apple's documentation, installs, downloads and keeps every session's file.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Apple-style sample code", .serialized, .timeLimit(.minutes(3)))
struct AppleStyleSampleTests {
    @Test("Apple-style SessionManager and extension keep every file they move with replaceItemAt, byte for byte")
    func keepsEveryFile() async throws {
        try await withLifecycle(sessions: 4, sessionSize: 65_536) { original in
            var scenario = original
            scenario.bundle.appExecutable = "apple-style-app"
            scenario.bundle.extensionExecutable = "apple-style-extension"
            // Apple's manifest lists absolute URLs; the generated catalog's are relative.
            let served = try absolutizeManifest(of: scenario)
            let install = try await scenario.scenario.runTool(try installArguments(for: scenario))
            #expect(install.status.isSuccess, "install: \(install.standardError)")

            let sessionsFolder = scenario.container.appendingPathComponent("Library/Caches/Sessions")
            // The extension moved the essential sessions into place before the app became launchable.
            for session in scenario.essentialSessions {
                #expect(FileManager.default.fileExists(atPath: sessionsFolder.appendingPathComponent("\(session.id).mp4").path))
            }

            #expect(try await scenario.appStatus()?["hasLaunched"] as? Bool == false)
            let app = try scenario.launchApp(["--timeout", "60"])
            let status = try await app.waitForExit(timeout: .seconds(90))
            #expect(status.isSuccess, "apple-style-app ended with \(status): \(app.diagnostics())")
            // The app never mentions a launch; starting it was its first launch, as on Apple platforms.
            #expect(try await scenario.appStatus()?["hasLaunched"] as? Bool == true)
            #expect(scenario.trace().filter { $0.event == "appLaunched" }.count == 1)

            for session in scenario.sessions {
                let kept = try Data(contentsOf: sessionsFolder.appendingPathComponent("\(session.id).mp4"))
                let original = try Data(contentsOf: scenario.server.catalogURL.appendingPathComponent(String(session.path.dropFirst())))
                #expect(kept == original, "\(session.id) is \(kept.count) bytes, the catalog's \(original.count)")
            }
            // The refreshed manifest replaced the extension's copy; no handed-over file was left behind.
            let manifest = try Data(contentsOf: scenario.container.appendingPathComponent("Library/Caches/manifest.json"))
            #expect(manifest == served)
            let leftovers = FileManager.default.enumerator(atPath: scenario.container.path)?
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".tmp") } ?? []
            #expect(leftovers.isEmpty, "left in the container: \(leftovers)")
        }
    }

    /// Rewrites the catalog's manifest with absolute session URLs, and returns its bytes.
    private func absolutizeManifest(of scenario: LifecycleScenario) throws -> Data {
        let file = scenario.server.catalogURL.appendingPathComponent("manifest.json")
        guard var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
            let sessions = manifest["sessions"] as? [[String: Any]]
        else { throw TestSupportError("The catalog's manifest is not a JSON object with sessions.") }
        manifest["sessions"] = sessions.map { session in
            var session = session
            session["url"] = scenario.server.url("/" + ((session["url"] as? String) ?? "")).absoluteString
            return session
        }
        let data = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
        try data.write(to: file)
        return data
    }

    /// `install --wait` with the scenario's Info.plists, plus the `AppGroupIdentifier` key that Apple's
    /// SharedSettings reads from both.
    private func installArguments(for scenario: LifecycleScenario) throws -> [String] {
        let folder = scenario.scenario.folder.appending("apple-style-bundle")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = "<dict>\n\t<key>AppGroupIdentifier</key>\n\t<string>\(scenario.bundle.appGroupIdentifier)</string>\n"
        let app = folder.appendingPathComponent("App-Info.plist")
        let appExtension = folder.appendingPathComponent("Extension-Info.plist")
        try Data(scenario.bundle.appPropertyList.replacingOccurrences(of: "<dict>\n", with: key).utf8).write(to: app)
        try Data(scenario.bundle.extensionPropertyList.replacingOccurrences(of: "<dict>\n", with: key).utf8).write(to: appExtension)
        return ["install", "--app-plist", app.path, "--extension-plist", appExtension.path, "--wait"]
    }
}
