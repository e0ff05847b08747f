/*
Abstract:
The game data in the app group container: the installed version, the archive waiting to be installed, and the atomic install.
*/

import Foundation
#if !canImport(Darwin)
// FileManager.containerURL(forSecurityApplicationGroupIdentifier:) is Foundation's on Apple
// platforms; on Linux the BackgroundAssets stand-in provides it.
import BackgroundAssets
#endif

/// Where the game keeps its data:
///
/// ```
/// Library/GameData/current -> v2               the data the game plays from
/// Library/GameData/v2/Levels/level-1.dat …
/// Library/Caches/GameUpdate/GameData.aar       an archive downloaded and not installed yet
/// Library/Caches/GameUpdate/update.json        its version file, for the SHA-256 to verify
/// ```
struct GameData: Sendable {
    let container: URL

    /// The game data of this app's group container, or `nil` when the game is not installed.
    static var current: GameData {
        get throws {
            guard let group = Bundle.main.object(forInfoDictionaryKey: "AppGroupIdentifier") as? String,
                  let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)
            else { throw GameError.notInstalled }
            return GameData(container: container)
        }
    }

    private var dataFolder: URL { container.appending(path: "Library/GameData", directoryHint: .isDirectory) }
    private var updateFolder: URL { container.appending(path: "Library/Caches/GameUpdate", directoryHint: .isDirectory) }
    private var downloadedArchive: URL { updateFolder.appending(path: "GameData.aar") }
    private var updateFile: URL { updateFolder.appending(path: "update.json") }

    /// The version the game plays, if any is installed.
    var installedVersion: Int? {
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: installedData.path)
        return link.flatMap { Int($0.dropFirst()) }
    }

    /// The folder of the installed data, which never shows a half-unpacked archive.
    var installedData: URL { dataFolder.appending(path: "current") }

    /// The update being downloaded or waiting to be installed.
    var pendingUpdate: GameVersion? {
        (try? Data(contentsOf: updateFile)).flatMap { try? JSONDecoder().decode(GameVersion.self, from: $0) }
    }

    /// Whether a downloaded archive waits for the processing task.
    var hasDownloadedArchive: Bool { FileManager.default.fileExists(atPath: downloadedArchive.path) }

    /// Remembers the update the download is for: its SHA-256 is checked after the game was relaunched.
    func recordPendingUpdate(_ update: GameVersion) throws {
        try FileManager.default.createDirectory(at: updateFolder, withIntermediateDirectories: true)
        try JSONEncoder().encode(update).write(to: updateFile, options: .atomic)
    }

    /// Moves the file a download task finished into the container, replacing an older one.
    func keepDownloadedArchive(at location: URL) throws {
        try FileManager.default.createDirectory(at: updateFolder, withIntermediateDirectories: true)
        _ = try? FileManager.default.removeItem(at: downloadedArchive)
        try FileManager.default.moveItem(at: location, to: downloadedArchive)
    }

    /// Verifies the downloaded archive against the version file's SHA-256 and installs it.
    ///
    /// The files are written into a staging folder the game never reads, made durable, and the new
    /// version becomes visible in one step: a new `current` link renamed over the old one. The game
    /// sees the old data or the new, never a mix, and a crash at any moment leaves the old data.
    /// - Returns: The version installed.
    func installDownloadedArchive() throws -> Int {
        // One install at a time: the processing task, in a launch the system started in the
        // background, and the game the player opened meanwhile may both get here.
        try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true)
        let lock = open(dataFolder.appending(path: ".install.lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw GameError.container("\(dataFolder.path) cannot hold its install lock (errno \(errno))") }
        // Closing the file releases the lock.
        defer { close(lock) }
        flock(lock, LOCK_EX)
        guard let update = pendingUpdate, hasDownloadedArchive else {
            // The other one installed it while this one waited.
            if let installed = installedVersion { return installed }
            throw GameError.container("no downloaded archive waits to be installed")
        }
        let archive = GameArchive(url: downloadedArchive)
        let digest = try archive.sha256()
        guard digest == update.sha256 else {
            try? FileManager.default.removeItem(at: updateFolder)
            throw GameError.container("the downloaded archive's SHA-256 is \(digest), not the \(update.sha256) of the version file")
        }
        let fileManager = FileManager.default
        let staging = dataFolder.appending(path: ".staging", directoryHint: .isDirectory)
        // What an interrupted install left was never visible; start again from nothing.
        try? fileManager.removeItem(at: staging)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        try archive.extract(into: staging)

        let previous = installedVersion
        let version = dataFolder.appending(path: "v\(update.version)")
        if previous != update.version {
            try? fileManager.removeItem(at: version)
            try fileManager.moveItem(at: staging, to: version)
            let link = dataFolder.appending(path: ".current.new")
            try? fileManager.removeItem(at: link)
            try fileManager.createSymbolicLink(atPath: link.path, withDestinationPath: "v\(update.version)")
            // rename(2) replaces the old link atomically: the switch itself.
            guard rename(link.path, installedData.path) == 0 else {
                throw GameError.container("\(installedData.path) cannot be replaced (errno \(errno))")
            }
        }
        // The previous version goes, and any an interrupted install switched away from but never deleted.
        let folders = (try? fileManager.contentsOfDirectory(atPath: dataFolder.path)) ?? []
        for folder in folders where folder.hasPrefix("v") && folder != "v\(update.version)" {
            try? fileManager.removeItem(at: dataFolder.appending(path: folder))
        }
        try? fileManager.removeItem(at: staging)
        try? fileManager.removeItem(at: updateFolder)
        return update.version
    }
}
