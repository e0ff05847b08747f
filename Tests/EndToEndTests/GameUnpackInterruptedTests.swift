/*
Abstract:
End-to-end: the game's processing task stopped in the middle of unpacking new data leaves the previous data whole and current, and the next launch installs the new.
*/

import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("The game sample's unpack, interrupted", .serialized, .timeLimit(.minutes(15)))
struct GameUnpackInterruptedTests {
    /// The generated catalog's session size; the game's archive holds three of them, in eight files.
    static let sessionSize = 8 << 20
    /// How much of the archive's files the unpack writes before the test holds it.
    static let unpackedBeforeTheKill = 1 << 20

    @Test("Killed in the middle of unpacking a new version, the game keeps the previous one whole; the next launch installs the new one")
    func killMidUnpack() async throws {
        let scenario = try Scenario()
        try await withAssetServer(sessions: 2, sessionSize: Self.sessionSize) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let plist = try GameSampleTests.infoPlist(versionURL: server.url("/game/version.json"), in: scenario)
                let install = try await scenario.runTool(["install", "--app-plist", plist.path, "--wait"])
                #expect(install.status == .exited(0), "\(install.standardError)")
                let game = try ProductsDirectory.executable(named: "background-game")
                let first = try await runCommand(game.path, arguments: ["--until-ready", "--timeout", "120"], environment: scenario.environment)
                #expect(first.status == .exited(0), "\(first.standardOutput)")
                let container = scenario.deviceRoot.appendingPathComponent(
                    "containers/group.\(GameSampleTests.bundleIdentifier)", isDirectory: true)
                let version = 2
                try await Self.killInTheUnpack(of: version, game: game, versionFile: server.catalogURL
                    .appendingPathComponent("game/version.json"), container: container, scenario: scenario)
                let data = container.appendingPathComponent("Library/GameData", isDirectory: true)
                let current = data.appendingPathComponent("current").path

                // The archive is still there: it is installed without downloading again, by the next
                // launch or, once the killed game is gone, by its processing task in a background
                // launch, which the system may run first.
                let next = try await runCommand(game.path, arguments: ["--until-ready", "--timeout", "120"], environment: scenario.environment)
                #expect(next.status == .exited(0), "\(next.standardOutput)")
                #expect(next.standardOutput.contains("Game data version \(version) is installed and verified. Ready to play."),
                        "\(next.standardOutput)")
                #expect(!next.standardOutput.contains("Downloading game data"), "\(next.standardOutput)")
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: current) == "v\(version)")
                #expect(try Self.contents(of: data.appendingPathComponent("current")).values.reduce(0, +) == 3 * Self.sessionSize)
                #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent(".staging").path), "what the kill left is gone")
            }
        }
    }

    /// Announces `version`, opens the game, holds its unpack in the middle and kills it there: the
    /// previous version must then be current and whole.
    ///
    /// The unpack reads the downloaded archive, so the test holds that still: while the test holds
    /// the game's install lock, the archive is moved aside and a named pipe put in its place. The
    /// game reads all of it through the pipe for its SHA-256 check, then only the header and the
    /// first MiB of the files for its unpack, and waits in `read` for the rest at any speed of the
    /// machine. The archive goes back in its place before the kill, for the next launch.
    static func killInTheUnpack(of version: Int, game: URL, versionFile: URL, container: URL, scenario: Scenario) async throws {
        let data = container.appendingPathComponent("Library/GameData", isDirectory: true)
        let current = data.appendingPathComponent("current")
        let staging = data.appendingPathComponent(".staging")
        let archive = container.appendingPathComponent("Library/Caches/GameUpdate/GameData.aar")
        let previous = try FileManager.default.destinationOfSymbolicLink(atPath: current.path)
        let before = try contents(of: current)
        // The unpack's folder appears after the SHA-256 check: one left from before would hide that moment.
        try #require(!FileManager.default.fileExists(atPath: staging.path))

        let lock = try await takeInstallLock(in: data)
        defer { close(lock) }
        let text = try String(contentsOf: versionFile, encoding: .utf8)
        try text.replacingOccurrences(of: #""version":\d+,"#, with: "\"version\":\(version),", options: .regularExpression)
            .write(to: versionFile, atomically: true, encoding: .utf8)
        let running = try ChildProcess.launch(
            executableURL: game, arguments: ["--until-ready", "--timeout", "300"], environment: scenario.environment)
        try await running.runScoped { running in
            // The game downloads the archive, then waits for the lock before it reads it.
            try await poll(until: { FileManager.default.fileExists(atPath: archive.path) || !running.isRunning },
                           timeout: .seconds(300), "the new version's archive to arrive")
            try #require(running.isRunning, "the game ended before the archive arrived: \(running.diagnostics())")
            let held = scenario.folder.appending("GameData.aar")
            try #require(rename(archive.path, held.path) == 0, "\(archive.path) cannot be moved aside: errno \(errno)")
            try #require(mkfifo(archive.path, 0o600) == 0, "no named pipe at \(archive.path): errno \(errno)")
            flock(lock, LOCK_UN)

            let check = try await NamedPipeWriter.open(archive)
            try await check.write(contentsOf: held)
            check.close()
            // The check's reader is closed once the unpack's folder exists: the next reader is the unpack's.
            try await poll(until: { FileManager.default.fileExists(atPath: staging.path) || !running.isRunning }, "the unpack to begin")
            let unpack = try await NamedPipeWriter.open(archive)
            let (header, files) = try archivePrefix(of: held, fileBytes: unpackedBeforeTheKill)
            try await unpack.write(header)
            try await unpack.write(files)
            try await poll(until: { unpackedBytes(in: staging) >= unpackedBeforeTheKill || !running.isRunning },
                           "the unpack to write \(unpackedBeforeTheKill) bytes")
            try #require(running.isRunning, "the game ended in its unpack: \(running.diagnostics())")
            #expect(hasOpen(archive, process: running.pid), "the game itself is the one unpacking")
            // The game reads on from the pipe it opened; the next launch finds the archive.
            try #require(rename(held.path, archive.path) == 0, "\(archive.path) cannot be put back: errno \(errno)")

            // Held in the middle, as a crash would stop it: the previous version is what the game sees, whole.
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: current.path) == previous)
            #expect(try contents(of: current) == before, "the previous version is whole")
            try running.signal(SIGKILL)
            _ = try await running.waitForExit()
            unpack.close()
            #expect(FileManager.default.fileExists(atPath: staging.path), "the kill left the unpack unfinished")
        }
    }

    /// Takes the game's install lock, waiting while a process of the game holds it.
    /// - Returns: The lock file's descriptor; closing it releases the lock.
    static func takeInstallLock(in data: URL) async throws -> Int32 {
        let lock = open(data.appendingPathComponent(".install.lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw TestSupportError("\(data.path) has no install lock to take: errno \(errno).") }
        do {
            try await poll(until: { flock(lock, LOCK_EX | LOCK_NB) == 0 }, "the game's install lock")
        } catch {
            close(lock)
            throw error
        }
        return lock
    }

    /// The archive's magic number, header length and header, and then the first `fileBytes` of its files.
    static func archivePrefix(of archive: URL, fileBytes: Int) throws -> (header: Data, files: Data) {
        let handle = try FileHandle(forReadingFrom: archive)
        defer { try? handle.close() }
        let start = try handle.read(upToCount: 12) ?? Data()
        try #require(start.count == 12, "\(archive.path) is shorter than an archive's start")
        let headerLength = start.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        // The game reads the magic number, the length and the header in a read each: written in one
        // piece no longer than PIPE_BUF (4096 bytes on Linux), they reach the pipe all at once.
        try #require(12 + headerLength <= 4096, "the archive's header is \(headerLength) bytes, too long for one pipe write")
        let header = try handle.read(upToCount: headerLength) ?? Data()
        let files = try handle.read(upToCount: fileBytes) ?? Data()
        try #require(files.count == fileBytes, "the archive's files hold less than \(fileBytes) bytes")
        return (start + header, files)
    }

    /// The bytes of every file under the unpack's folder so far.
    static func unpackedBytes(in staging: URL) -> Int {
        ((try? contents(of: staging)) ?? [:]).values.reduce(0, +)
    }

    /// Whether process `pid` has `file` open (the named pipe it reads, not what is at its path later).
    static func hasOpen(_ file: URL, process pid: Int32) -> Bool {
        var target = stat()
        guard stat(file.path, &target) == 0 else { return false }
        let descriptors = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).contains { entry in
            var status = stat()
            return stat("\(descriptors)/\(entry)", &status) == 0 && status.st_dev == target.st_dev && status.st_ino == target.st_ino
        }
    }

    /// Each file under a folder, with its size.
    static func contents(of folder: URL) throws -> [String: Int] {
        let root = folder.resolvingSymlinksInPath()
        var sizes: [String: Int] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path) ?? NSEnumerator() {
            let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
            if attributes[.type] as? FileAttributeType == .typeRegular { sizes[path] = attributes[.size] as? Int }
        }
        return sizes
    }
}
