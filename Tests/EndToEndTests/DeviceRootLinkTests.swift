/*
Abstract:
End-to-end: a symbolic link planted at any file the service keeps in its device root is never followed.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Never follow a link in the device root", .serialized, .timeLimit(.minutes(5)))
struct DeviceRootLinkTests {
    /// A file outside the device root that a link points to, and what it must still be afterwards.
    struct Target {
        let link: URL
        let file: URL
        let contents: String

        /// Plants a link at `link` to a new file (or, when `exists` is false, a missing one) in `folder`.
        static func plant(at link: URL, in folder: TemporaryDirectory, exists: Bool) throws -> Target {
            let file = folder.appending("target-of-\(link.lastPathComponent)")
            let contents = "belongs to someone else: \(link.lastPathComponent)\n"
            if exists {
                try Data(contents.utf8).write(to: file)
                chmod(file.path, 0o644)
            }
            try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
            return Target(link: link, file: file, contents: exists ? contents : "")
        }

        /// Records an issue when the target changed: its contents, its mode, or its existence.
        func expectUntouched(exists: Bool) {
            var status = stat()
            guard exists else {
                #expect(lstat(file.path, &status) != 0, "a link at \(link.path) made the service create \(file.path)")
                return
            }
            #expect((try? String(contentsOf: file, encoding: .utf8)) == contents, "\(file.path), the target of \(link.path)")
            #expect(lstat(file.path, &status) == 0 && status.st_mode & 0o7777 == 0o644,
                    "\(file.path), the target of \(link.path), keeps its mode 0644")
        }
    }

    @Test("A link at any file the service can do without is left alone, and the service still answers",
          arguments: [true, false])
    func linksTheServiceRunsWithout(targetsExist: Bool) async throws {
        try await withTemporaryDeviceRoot { root in
            let outside = try TemporaryDirectory(prefix: "link-targets")
            defer { outside.remove() }
            let files = DevicePaths(root: root.url).serviceFiles.filter { $0.whenUnusable == .serviceRunsWithout }
            #expect(files.count >= 4, "the table names the trace, the log, the pid file and the crash marker")
            let targets = try files.map { try Target.plant(at: $0.url, in: outside, exists: targetsExist) }

            try await withService(deviceRoot: root.url, configuration: [:]) { service in
                let status = try await runCommand(
                    try ProductsDirectory.executable(named: "backgroundassets-debug").path, arguments: ["status"],
                    environment: root.environment)
                #expect(status.status.isSuccess, "the service answers: \(status.standardError)")
                let errors = service.process.standardError()
                #expect(errors.contains("The trace is not written: \(DevicePaths(root: root.url).traceFile.path) cannot be used: "
                    + "it is a symbolic link"), "\(errors)")
                #expect(errors.contains("The device log is not written: \(DevicePaths(root: root.url).logFile.path) cannot be used"),
                        "\(errors)")
            }
            for target in targets { target.expectUntouched(exists: targetsExist) }
        }
    }

    @Test("A link at a file the service needs stops it with a message naming the link")
    func linksTheServiceNeeds() async throws {
        let files = DevicePaths(root: URL(fileURLWithPath: "/")).serviceFiles
            .filter { $0.whenUnusable == .serviceStops }.map(\.url.lastPathComponent)
        #expect(files.contains("queue.sqlite") && files.contains("backgroundassetsd.lock"))
        for name in files {
            try await withTemporaryDeviceRoot { root in
                let outside = try TemporaryDirectory(prefix: "link-targets")
                defer { outside.remove() }
                let paths = DevicePaths(root: root.url)
                let file = try #require(paths.serviceFiles.first { $0.url.lastPathComponent == name })
                let target = try Target.plant(at: file.url, in: outside, exists: true)

                let status = try await withChildProcess(
                    executableURL: try ProductsDirectory.executable(named: "backgroundassetsd"),
                    arguments: ["--foreground"], environment: root.environment
                ) { process in
                    let status = try await process.waitForExit()
                    let errors = process.standardError()
                    // The store's, the lock's or the settings' own sentence, each naming the link and its target.
                    #expect(errors.contains(file.url.path) && errors.contains("is a symbolic link (to \(target.file.path))"),
                            "\(name): \(errors)")
                    return status
                }
                #expect(!status.isSuccess, "\(name): the service refuses to start")
                target.expectUntouched(exists: true)
            }
        }
    }

    @Test("A link among the store's write-ahead log and shared memory stops the service, naming the link")
    func linksBesideTheQueue() async throws {
        for suffix in ["-shm", "-wal"] {
            try await withTemporaryDeviceRoot { root in
                let outside = try TemporaryDirectory(prefix: "link-targets")
                defer { outside.remove() }
                let queue = DevicePaths(root: root.url).queueDatabase
                let link = URL(fileURLWithPath: queue.path + suffix)
                let target = try Target.plant(at: link, in: outside, exists: true)
                try await withChildProcess(
                    executableURL: try ProductsDirectory.executable(named: "backgroundassetsd"),
                    arguments: ["--foreground"], environment: root.environment
                ) { process in
                    // SQLite may instead replace a stale log it finds with its own; either way the target is untouched.
                    let answered = try await poll("the service to answer or stop") { () -> Bool? in
                        if process.exitStatus != nil { return false }
                        return ServiceProcess.canConnect(toUnixSocket: root.appending("run/backgroundassetsd.sock").path)
                            ? true : nil
                    }
                    if !answered {
                        try await process.waitForExit()
                        #expect(process.standardError().contains("\(link.path) cannot be used: it is a symbolic link"),
                                "\(process.standardError())")
                    }
                }
                target.expectUntouched(exists: true)
            }
        }
    }
}
