/*
Abstract:
The game data in the app group container: the installed version, the archive waiting to be installed, and the atomic install.
*/

import AssetPackArchive
import AssetPackFormat
import Foundation
#if !canImport(Darwin)
// FileManager.containerURL(forSecurityApplicationGroupIdentifier:) is Foundation's on Apple
// platforms; on Linux the BackgroundAssets stand-in provides it.
import BackgroundAssets
#endif

/// Where the game keeps its data:
///
/// ```
/// Library/GameData/GameData/current -> v2     the data the game plays from
/// Library/Caches/GameUpdate/GameData.aar      an archive downloaded and not installed yet
/// Library/Caches/GameUpdate/update.json       its version file, for the SHA-256 to verify
/// ```
struct GameData: Sendable {
    /// The archive's pack identifier.
    static let packID = "GameData"

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

    private var layout: AssetPackContainerLayout {
        AssetPackContainerLayout(root: container.appending(path: "Library/GameData", directoryHint: .isDirectory))
    }
    private var updateFolder: URL { container.appending(path: "Library/Caches/GameUpdate", directoryHint: .isDirectory) }
    private var downloadedArchive: URL { updateFolder.appending(path: "GameData.aar") }
    private var updateFile: URL { updateFolder.appending(path: "update.json") }

    /// The version the game plays, if any is installed.
    var installedVersion: Int? { layout.installedVersion(of: Self.packID) }

    /// The folder of the installed data, which never shows a half-unpacked archive.
    var installedData: URL { layout.currentLink(Self.packID) }

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

    /// Verifies the downloaded archive against the version file's SHA-256 and unpacks it.
    ///
    /// The unpacker writes the new version beside the old one, checks every byte, and only then
    /// switches `current` over with one rename: the game sees the old data or the new, never a mix,
    /// and a crash in the middle leaves the old data in place.
    /// - Returns: The version installed.
    func installDownloadedArchive() throws -> Int {
        guard let update = pendingUpdate, hasDownloadedArchive else {
            throw GameError.container("no downloaded archive waits to be installed")
        }
        let unpacker = AssetPackUnpacker(layout: layout)
        // What an earlier install left when it was interrupted is never visible; delete it.
        unpacker.removeLeftovers()
        let installation = try unpacker.install(
            archive: downloadedArchive,
            expecting: .init(packID: Self.packID, version: update.version, sha256: update.sha256))
        try? FileManager.default.removeItem(at: updateFolder)
        return installation.version
    }
}
