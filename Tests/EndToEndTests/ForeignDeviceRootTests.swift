/*
Abstract:
End-to-end: a device root another user prepared is refused, nothing is written into it, and another user's client is told it was refused.
*/

import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite(
    "Refuse another user's device root", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: geteuid() == 0, "making folders of another user needs root"))
struct ForeignDeviceRootTests {
    static let nobody: uid_t = 65534

    @Test("A device root of another user, with system/ a link to that user's folder, is refused and left untouched")
    func refusesForeignRoot() async throws {
        let folder = try TemporaryDirectory(prefix: "foreign")
        let root = folder.appending("device")
        let target = folder.appending("elsewhere")
        for url in [root, target] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        chmod(target.path, 0o755)
        try FileManager.default.createSymbolicLink(at: root.appending(path: "system"), withDestinationURL: target)
        for url in [root, root.appending(path: "system"), target] { lchown(url.path, Self.nobody, Self.nobody) }

        let environment = ServiceProcess.environment(for: root)
        let tool = try ProductsDirectory.executable(named: "backgroundassets-debug").path
        for arguments in [["status"], ["reset", "--yes"]] {
            let result = try await runCommand(tool, arguments: arguments, environment: environment)
            #expect(!result.status.isSuccess)
            #expect(result.standardError.contains("The device root \(root.path) belongs to nobody (uid 65534)"),
                    "\(arguments): \(result.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty, "nothing was written there")
        var status = stat()
        stat(target.path, &status)
        #expect(status.st_mode & 0o777 == 0o755, "the link's target keeps its mode")

        // Owned, but its system/ a link: refused too, naming the link.
        lchown(root.path, 0, 0)
        let linked = try await runCommand(tool, arguments: ["status"], environment: environment)
        #expect(linked.standardError.contains("\(root.path)/system is a symbolic link"), "\(linked.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
    }

    @Test("A client of another user is told the service refused it, not that a pipe broke")
    func refusesAnotherUsersClient() async throws {
        let folder = try TemporaryDirectory(prefix: "foreign")
        let root = folder.appending("device")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        chmod(folder.url.path, 0o755)
        lchown(root.path, Self.nobody, Self.nobody)
        // The service runs as nobody; the test, as root, may still connect to its socket.
        let service = try ChildProcess.launch(
            executableURL: try locateExecutable("setpriv"),
            arguments: ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups",
                        try ProductsDirectory.executable(named: "backgroundassetsd").path, "--foreground"],
            environment: ServiceProcess.environment(for: root))
        try await service.runScoped { _ in
            let socket = root.appending(path: "run/backgroundassetsd.sock").path
            try await poll(until: { ServiceProcess.canConnect(toUnixSocket: socket) }, "the service")
            let result = try await runCommand(
                try ProductsDirectory.executable(named: "backgroundassets-debug").path, arguments: ["status"],
                environment: ServiceProcess.environment(for: root))
            #expect(!result.status.isSuccess)
            #expect(result.standardError.contains("The Background Assets service refused the connection: A process of user 0 connected, but only user 65534"),
                    "\(result.standardError)")
            #expect(!result.standardError.contains("Broken pipe"))
            #expect(!result.standardError.contains(".."))
        }
    }
}
