/*
Abstract:
End-to-end: after install, the app and the extension run from their installed bundles and read Bundle.main.
*/

import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Run the app and its extension from their installed bundles")
    struct SampleBundleTests {
        @Test("Install writes the app bundle, with the extension inside it and the executables linked in")
        func installWritesBundle() async throws {
            try await withSampleDevice { device in
                try await device.install()
                let app = SampleDevice.appExecutable, appExtension = SampleDevice.extensionExecutable
                let bundle = device.scenario.deviceRoot.appendingPathComponent(
                    "apps/\(SampleDevice.bundleIdentifier)/\(app).app", isDirectory: true)
                let info = try Self.infoDictionary(at: bundle.appendingPathComponent("Info.plist"))
                #expect(info["CFBundleIdentifier"] as? String == SampleDevice.bundleIdentifier)
                #expect(info["BAManifestURL"] as? String == device.manifestURL.absoluteString)
                let appex = bundle.appendingPathComponent("Extensions/\(appExtension).appex", isDirectory: true)
                let extensionInfo = try Self.infoDictionary(at: appex.appendingPathComponent("Info.plist"))
                #expect(extensionInfo["CFBundleExecutable"] as? String == appExtension)
                for executable in [
                    bundle.appendingPathComponent(app), appex.appendingPathComponent(appExtension),
                ] {
                    #expect(FileManager.default.isExecutableFile(atPath: executable.path), "\(executable.path)")
                }
                // The service launched the extension through its bundle for the install's content request.
                let record = try Self.infoDictionary(
                    json: device.scenario.deviceRoot.appendingPathComponent(
                        "apps/\(SampleDevice.bundleIdentifier)/app.json"))
                #expect((record["extensionExecutable"] as? String)?.contains("\(app).app/Extensions/") == true)
            }
        }

        @Test("The app started from the build folder moves into its bundle and reads BAManifestURL from Bundle.main")
        func appReadsInstalledInfoPlist() async throws {
            try await withSampleDevice { device in
                let sessions = try device.catalog()
                try await device.install()
                // Neither --manifest-url nor BA_MANIFEST_URL: the test server's address is written only in
                // the installed Info.plist, so the app finds its manifest only through Bundle.main.
                var environment = device.scenario.environment
                environment["BA_MANIFEST_URL"] = nil
                let app = try await runCommand(
                    try ProductsDirectory.executable(named: SampleDevice.appExecutable).path,
                    arguments: ["--until-complete", "--timeout", "30", "--plain"], environment: environment,
                    timeout: .seconds(45))
                #expect(app.status == .exited(0), "\(app.standardOutput)\n\(app.standardError)")
                #expect(app.standardOutput.contains("All \(sessions.count) sessions are on the device."),
                        "\(app.standardOutput)\n\(app.standardError)")
                // The port App/Info.plist ships with is not this test's server's.
                let shipped = try #require(SampleIdentity.sample.manifestURL.port)
                #expect(shipped != device.server.port)
                #expect(!app.standardError.contains("127.0.0.1:\(shipped)/"), "\(app.standardError)")
            }
        }

        private static func infoDictionary(at url: URL) throws -> [String: Any] {
            let data = try Data(contentsOf: url)
            return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        }

        private static func infoDictionary(json url: URL) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        }
    }
}
