/*
Abstract:
Tests of how a process finds and starts the system service, and how it names itself to it.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
@testable import ServiceClient
import Synchronization
import TestSupport
import Testing

@Suite("Starting and addressing the service")
struct ServiceLauncherTests {
    /// A folder with an `app` and, optionally, a `backgroundassetsd` script that records its device root.
    final class Products: Sendable {
        let folder: URL

        init(withService: Bool) throws {
            folder = URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "ba-products-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard withService else { return }
            let script = """
                #!/bin/sh
                readlink /proc/$$/fd/2 > "$(dirname "$0")/stderr"
                printf '%s' "$BA_DEVICE_ROOT" > "$(dirname "$0")/started"

                """
            let service = folder.appending(path: "backgroundassetsd")
            try script.write(to: service, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: service.path)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        var app: URL { folder.appending(path: "app") }
        var marker: URL { folder.appending(path: "started") }
        var stderrTarget: URL { folder.appending(path: "stderr") }
    }

    @Test("An app running from its installed bundle finds the service beside the build it was installed from")
    func installedBundleFindsBuild() throws {
        let products = try Products(withService: true)
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "ba-device-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let paths = DevicePaths(root: root)
        let bundle = paths.appsDirectory.appending(path: "com.example.app/App.app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let recordFile = try #require(paths.appRecordFile(forBundleIdentifier: "com.example.app"))
        // The record names the bundle's executable and the build it came from, as install writes it.
        let record = ["appExecutable": bundle.appending(path: "app").absoluteString, "builtAppExecutable": products.app.absoluteString]
        try JSONSerialization.data(withJSONObject: record).write(to: recordFile)
        let installed = bundle.appending(path: "app")
        #expect(ServiceLauncher.beside(installed, paths: paths) == nil, "no service inside the bundle")
        #expect(ServiceLauncher.installedBuild(of: installed, paths: paths)?.path == products.app.path)
        #expect(ServiceLauncher.installedBuild(of: products.app, paths: paths) == nil, "a build is not a bundle")
    }

    @Test("The service is found beside the app's executable, or not at all")
    func findsServiceBesideExecutable() throws {
        let paths = DevicePaths(root: URL(fileURLWithPath: "/tmp/device"))
        let with = try Products(withService: true)
        #expect(ServiceLauncher.beside(with.app, paths: paths)?.executable.lastPathComponent == "backgroundassetsd")
        let without = try Products(withService: false)
        #expect(ServiceLauncher.beside(without.app, paths: paths) == nil)
    }

    @Test("A started service is told which device root to use and never holds the caller's stderr")
    func launchPassesDeviceRoot() async throws {
        let products = try Products(withService: true)
        let paths = DevicePaths(root: URL(fileURLWithPath: "/tmp/some device root"))
        let launcher = try #require(ServiceLauncher.beside(products.app, paths: paths))
        try launcher.launch()
        try await poll(
            until: { FileManager.default.fileExists(atPath: products.marker.path) },
            "the launched service to write \(products.marker.path)")
        #expect(try String(contentsOf: products.marker, encoding: .utf8) == paths.root.path)
        #if os(Linux)
        // This device root has no system/ folder, so there is no device log: the service gets a pipe
        // only the launcher reads (to say why, should it exit at start), never the test's own standard error.
        let serviceStandardError = try String(contentsOf: products.stderrTarget, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let ownStandardError = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/2")
        #expect(serviceStandardError.hasPrefix("pipe:"))
        #expect(serviceStandardError != ownStandardError)
        #endif
    }

    @Test("A service that cannot be started is reported with its path")
    func launchFailure() throws {
        let launcher = ServiceLauncher(
            executable: URL(fileURLWithPath: "/nonexistent/backgroundassetsd"),
            paths: DevicePaths(root: URL(fileURLWithPath: "/tmp/device")))
        do {
            try launcher.launch()
            Issue.record("launching a missing executable should fail")
        } catch let error as BAError {
            #expect(error.code == .callerConnectionInvalid)
            #expect(error.message.contains("/nonexistent/backgroundassetsd"))
        }
    }

    @Test("A process names its app and role from the environment")
    func identityFromEnvironment() {
        let launched = ProcessIdentity.current(environment: [
            ProcessIdentity.bundleIdentifierVariable: "com.example.sessions", ProcessIdentity.roleVariable: "extension",
        ])
        #expect(launched == ProcessIdentity(bundleIdentifier: "com.example.sessions", role: .extension))
        #expect(launched.hello.role == .extension)
        #expect(launched.hello.processIdentifier == ProcessInfo.processInfo.processIdentifier)
        let unnamed = ProcessIdentity.current(environment: [ProcessIdentity.roleVariable: "daemon"])
        #expect(unnamed.role == .app, "an unknown role is treated as the app")
        #expect(!unnamed.bundleIdentifier.isEmpty)
    }

    @Test("Work given to a worker thread runs in order, off the caller's thread")
    func workerThreadOrder() async {
        let worker = WorkerThread(name: "test")
        let order = Mutex<[Int]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for index in 0..<100 {
                worker.async { order.withLock { $0.append(index) } }
            }
            worker.async { continuation.resume() }
        }
        #expect(order.withLock { $0 } == Array(0..<100))
    }
}
