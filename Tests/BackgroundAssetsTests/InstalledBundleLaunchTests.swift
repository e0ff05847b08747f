/*
Abstract:
Tests of the decision that moves an app started from its build folder into its installed bundle.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Moving into the installed bundle")
struct InstalledBundleLaunchTests {
    /// A device root with one installed app whose bundle executable exists.
    struct Device {
        let paths: DevicePaths
        let built: String
        let installed: String

        init() throws {
            let root = FileManager.default.temporaryDirectory.appending(path: "bundle-launch-\(UUID().uuidString)")
            paths = DevicePaths(root: root)
            let appDirectory = try #require(paths.appDirectory(forBundleIdentifier: "com.example.app"))
            let bundle = appDirectory.appending(path: "app.app")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            installed = bundle.appending(path: "app").path
            built = root.appending(path: "build/app").path
            _ = FileManager.default.createFile(atPath: installed, contents: Data(), attributes: [.posixPermissions: 0o755])
            let record: [String: Any] = [
                "appExecutable": URL(fileURLWithPath: installed).absoluteString,
                "builtAppExecutable": URL(fileURLWithPath: built).absoluteString,
            ]
            try JSONSerialization.data(withJSONObject: record).write(
                to: try #require(paths.appRecordFile(forBundleIdentifier: "com.example.app")))
        }

        func remove() { try? FileManager.default.removeItem(at: paths.root) }
    }

    @Test("An installed app started from its build folder becomes its installed bundle's executable")
    func builtAppMoves() throws {
        let device = try Device()
        defer { device.remove() }
        #expect(
            InstalledBundleLaunch.installedExecutable(environment: [:], executable: device.built, paths: device.paths)
                == device.installed)
        #expect(
            InstalledBundleLaunch.installedExecutable(
                environment: ["BA_PROCESS_ROLE": "app"], executable: device.built, paths: device.paths)
                == device.installed)
    }

    @Test("The installed executable itself, the extension, the tool, a moved process and an unknown one stay")
    func othersStay() throws {
        let device = try Device()
        defer { device.remove() }
        let stays: [([String: String], String)] = [
            ([:], device.installed),
            (["BA_PROCESS_ROLE": "extension"], device.built),
            (["BA_PROCESS_ROLE": "tool"], device.built),
            (["BA_RELAUNCHED_FROM": device.built], device.built),
            ([:], "/usr/bin/true"),
        ]
        for (environment, executable) in stays {
            #expect(
                InstalledBundleLaunch.installedExecutable(
                    environment: environment, executable: executable, paths: device.paths) == nil,
                "\(environment) \(executable)")
        }
    }

    @Test("An app whose installed executable is missing stays where it was started")
    func missingBundleStays() throws {
        let device = try Device()
        defer { device.remove() }
        try FileManager.default.removeItem(atPath: device.installed)
        #expect(
            InstalledBundleLaunch.installedExecutable(environment: [:], executable: device.built, paths: device.paths)
                == nil)
    }
}
