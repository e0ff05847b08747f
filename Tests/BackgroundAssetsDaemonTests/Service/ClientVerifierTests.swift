/*
Abstract:
ClientVerifier: which hellos stand for which executables, decided without starting processes.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("A client is who the kernel says it is")
struct ClientVerifierTests {
    static let appFile = ExecutableIdentity(device: 1, inode: 10)
    static let builtAppFile = ExecutableIdentity(device: 2, inode: 20)
    static let extensionFile = ExecutableIdentity(device: 1, inode: 11)
    static let otherAppFile = ExecutableIdentity(device: 1, inode: 30)
    static let toolFile = ExecutableIdentity(device: 2, inode: 40)
    static let strangerFile = ExecutableIdentity(device: 3, inode: 50)

    static let installed = [
        ClientVerifier.InstalledExecutables(
            bundleIdentifier: "com.example.sessions", app: [appFile, builtAppFile], extension: [extensionFile]),
        ClientVerifier.InstalledExecutables(bundleIdentifier: "com.example.other", app: [otherAppFile], extension: []),
    ]

    /// A verifier whose process 7 runs `file` at `path`, and whose tool is ``toolFile``.
    static func verifier(running file: ExecutableIdentity?, path: String = "/bin/stranger") -> ClientVerifier {
        ClientVerifier(
            executableOfProcess: { pid in
                guard pid == 7, let file else { return nil }
                return PeerExecutable(identity: file, path: path)
            },
            toolExecutable: { toolFile })
    }

    static func verdict(_ bundleIdentifier: String, _ role: Hello.Role, running file: ExecutableIdentity?, path: String = "/bin/stranger")
        -> ClientVerifier.Verdict
    {
        verifier(running: file, path: path).verdict(
            for: Hello(bundleIdentifier: bundleIdentifier, role: role, processIdentifier: 99),
            processIdentifier: 7, installed: installed)
    }

    @Test("The installed app's executable, in its bundle or its build folder, is that app; its extension's is the extension")
    func installedExecutablesAreAccepted() {
        #expect(Self.verdict("com.example.sessions", .app, running: Self.appFile) == .accepted)
        #expect(Self.verdict("com.example.sessions", .app, running: Self.builtAppFile) == .accepted)
        #expect(Self.verdict("com.example.sessions", .extension, running: Self.extensionFile) == .accepted)
    }

    @Test("Another program claiming an installed app is refused, in words naming the claim and its executable")
    func strangerClaimingInstalledAppIsRefused() throws {
        let verdict = Self.verdict("com.example.sessions", .app, running: Self.strangerFile, path: "/tmp/evil")
        guard case let .refused(reason) = verdict else { Issue.record("accepted: \(verdict)"); return }
        #expect(reason.contains("says it is the app of \"com.example.sessions\""), "\(reason)")
        #expect(reason.contains("/tmp/evil"), "\(reason)")
        #expect(reason.contains("no installed app's executable"), "\(reason)")
    }

    @Test("An installed app cannot speak as another installed app, nor as its own extension")
    func installedAppsSpeakOnlyAsThemselves() {
        #expect(Self.verdict("com.example.sessions", .app, running: Self.otherAppFile) != .accepted)
        #expect(Self.verdict("com.example.sessions", .extension, running: Self.appFile) != .accepted)
        #expect(Self.verdict("com.example.sessions", .app, running: Self.extensionFile) != .accepted)
    }

    @Test("The tool role belongs to the debug tool's executable alone; the tool may act for any app")
    func toolRole() throws {
        #expect(Self.verdict("com.example.backgroundassets-debug", .tool, running: Self.toolFile) == .accepted)
        #expect(Self.verdict("com.example.sessions", .tool, running: Self.toolFile) == .accepted)
        let verdict = Self.verdict("com.example.backgroundassets-debug", .tool, running: Self.strangerFile, path: "/tmp/evil")
        guard case let .refused(reason) = verdict else { Issue.record("accepted: \(verdict)"); return }
        #expect(reason.contains("says it is the debug tool"), "\(reason)")
        #expect(reason.contains("/tmp/evil"), "\(reason)")
        #expect(Self.verdict("com.example.sessions", .tool, running: Self.appFile) != .accepted)
    }

    @Test("An identifier no app has may be claimed by any program that is no installed app, the tool included")
    func uninstalledIdentifiers() {
        #expect(Self.verdict("com.example.never-installed", .app, running: Self.strangerFile) == .accepted)
        #expect(Self.verdict("com.example.never-installed", .extension, running: Self.strangerFile) == .accepted)
        #expect(Self.verdict("com.example.never-installed", .app, running: Self.toolFile) == .accepted)
    }

    @Test("An installed app or extension cannot take an identifier no app has: its data stays under its own name")
    func installedAppsCannotTakeFreeIdentifiers() throws {
        let verdict = Self.verdict("com.example.never-installed", .app, running: Self.appFile, path: "/dev/apps/Sessions")
        guard case let .refused(reason) = verdict else { Issue.record("accepted: \(verdict)"); return }
        #expect(reason.contains("the executable of the app of \"com.example.sessions\""), "\(reason)")
        #expect(Self.verdict("com.example.never-installed", .extension, running: Self.extensionFile) != .accepted)
    }

    @Test("A process whose executable cannot be read is refused, whatever it claims")
    func unreadableExecutableIsRefused() throws {
        let verdict = Self.verdict("com.example.never-installed", .app, running: nil)
        guard case let .refused(reason) = verdict else { Issue.record("accepted: \(verdict)"); return }
        #expect(reason.contains("/proc/7/exe"), "\(reason)")
    }

    @Test("Identities come from the file, not the path: a hard link is the same executable, a copy is not")
    func fileIdentity() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "verifier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = folder.appending(path: "built")
        try Data("#!/bin/sh\n".utf8).write(to: built)
        let linked = folder.appending(path: "linked")
        try FileManager.default.linkItem(at: built, to: linked)
        let copied = folder.appending(path: "copied")
        try FileManager.default.copyItem(at: built, to: copied)
        let original = try #require(ExecutableIdentity(path: built.path))
        #expect(ExecutableIdentity(path: linked.path) == original)
        #expect(ExecutableIdentity(path: copied.path) != original)
        #expect(ExecutableIdentity(path: folder.appending(path: "missing").path) == nil)
    }

    @Test("The live look-up finds this process's executable through /proc, and nothing for a process that is not")
    func liveLookUp() throws {
        let own = try #require(PeerExecutable(processIdentifier: getpid()))
        #expect(own.identity == ExecutableIdentity(path: "/proc/self/exe"))
        #expect(own.path.hasPrefix("/"))
        #expect(PeerExecutable(processIdentifier: 0) == nil)
        #expect(PeerExecutable(processIdentifier: -1) == nil)
    }
}
