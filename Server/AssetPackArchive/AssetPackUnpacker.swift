/*
Abstract:
Verifies an archive and installs it into an app group's packs folder atomically: readers see the old version or the new, never a mix.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// Installs, removes and tidies the asset packs of one app group container.
///
/// An install checks every digest first, then unpacks into `.staging/`, makes the data durable, renames the
/// whole version folder beside the old one, and only then makes it current by renaming a new
/// `current` link over the old one. A crash at any moment (even `kill -9`) leaves the old version
/// current and whole; what the crash left behind is never visible through `current` and goes at the
/// next ``removeLeftovers(keeping:)``.
public struct AssetPackUnpacker: Sendable {
    /// What the archive must be, from the download manifest that listed it.
    public struct Expectation: Sendable, Equatable {
        public var packID: String
        public var version: Int
        /// The whole archive's SHA-256, when the manifest gives it.
        public var sha256: String?

        /// Creates an expectation.
        public init(packID: String, version: Int, sha256: String? = nil) {
            self.packID = packID
            self.version = version
            self.sha256 = sha256
        }
    }

    /// A version that was installed.
    public struct Installation: Sendable, Equatable {
        public var packID: String
        public var version: Int
        /// The size of its files.
        public var installSize: Int64
        /// The version it replaced, if another was current.
        public var replacedVersion: Int?
        /// Whether that exact version was already current, so nothing changed.
        public var wasAlreadyInstalled: Bool
    }

    /// The packs folder this unpacker works in.
    public let layout: AssetPackContainerLayout

    /// Creates an unpacker for a packs folder.
    public init(layout: AssetPackContainerLayout) {
        self.layout = layout
    }

    /// Verifies an archive and makes it the current version of its pack.
    ///
    /// Every digest is checked before a byte is unpacked: the whole archive's against the
    /// manifest's, and each file's against the header's when the manifest gives no digest. Digests
    /// computed while the archive was downloaded (``AssetPackArchiveDigester``) are used when they
    /// cover exactly this file, so it is read once more only to copy its files out; without them,
    /// it is read once to digest it first.
    /// - Parameters:
    ///   - archive: The downloaded archive.
    ///   - expectation: The pack, version and digest the download manifest promised, or `nil` to take the archive as it is.
    ///   - digests: The archive's digests, computed as its bytes arrived, if they were.
    ///   - progress: Called after each file is unpacked.
    /// - Returns: What was installed.
    /// - Throws: ``AssetPackArchiveError``; nothing of the archive is visible then.
    @discardableResult
    public func install(archive: URL, expecting expectation: Expectation? = nil, digests: AssetPackArchiveDigests? = nil,
                        progress: (AssetPackArchiveReader.Progress) -> Void = { _ in }) throws(AssetPackArchiveError) -> Installation {
        // Files written as the archive arrived are installed only through the checks below.
        var arrivedFiles = digests?.unpacked.flatMap(stagedFolder)
        defer { if let arrivedFiles { discard(arrivedFiles) } }
        let reader = try AssetPackArchiveReader(url: archive)
        let header = reader.header
        if let expectation, expectation.packID != header.assetPackID || expectation.version != header.version {
            throw AssetPackArchiveError(.unexpectedPack, path: archive.path, problem: "holds \(header.assetPackID) "
                + "version \(header.version), but the download manifest lists \(expectation.packID) version "
                + "\(expectation.version) at its URL; publish the archive the manifest describes (ba-package "
                + "download-manifest create) and check again.")
        }
        let sha256 = expectation?.sha256
        let checked = try reader.digests(matching: digests, needsFileDigests: sha256 == nil)
        try reader.check(checked, expecting: sha256)
        let packID = header.assetPackID
        let previous = layout.installedVersion(of: packID)
        if previous == header.version {
            return Installation(packID: packID, version: header.version, installSize: header.installSize,
                                replacedVersion: nil, wasAlreadyInstalled: true)
        }
        try makeDirectory(layout.stagingDirectory)
        try makeDirectory(layout.trashDirectory)
        // The files written as it arrived become the version's folder when the digests checked are theirs.
        let staging: URL
        let filesArrived = arrivedFiles != nil && checked.unpacked == arrivedFiles
        if filesArrived, let arrived = arrivedFiles {
            staging = arrived
            arrivedFiles = nil
        } else {
            staging = layout.stagingDirectory.appending(path: "\(packID).v\(header.version).\(UUID.random().uuidString)")
            guard mkdir(staging.path, 0o755) == 0 else { throw ioError(staging, "cannot be created") }
        }
        do throws(AssetPackArchiveError) {
            if filesArrived {
                try reader.syncFiles(in: staging, progress: progress)
            } else {
                try reader.copyFiles(into: staging, progress: progress)
            }
            try makeDirectory(layout.packDirectory(packID))
            let destination = layout.versionDirectory(packID, version: header.version)
            // A folder of this version that is not current is what a crash left between the two renames.
            if FileManager.default.fileExists(atPath: destination.path) { discard(destination) }
            guard rename(staging.path, destination.path) == 0 else { throw ioError(destination, "cannot be renamed into place") }
            // The version folder's entry is on the disk before any link can point at it.
            syncDirectory(layout.packDirectory(packID))
        } catch {
            discard(staging)
            throw error
        }
        try makeCurrent(packID, version: header.version)
        if let previous { discard(layout.versionDirectory(packID, version: previous)) }
        return Installation(packID: packID, version: header.version, installSize: header.installSize,
                            replacedVersion: previous, wasAlreadyInstalled: false)
    }

    /// Removes a pack: it disappears in one rename, then its files are deleted.
    /// - Returns: Whether the pack was there.
    /// - Throws: ``AssetPackArchiveError`` when the pack's folder cannot be moved away.
    @discardableResult
    public func remove(packID: String) throws(AssetPackArchiveError) -> Bool {
        guard AssetPackIdentifier.problem(with: packID) == nil else { return false }
        let folder = layout.packDirectory(packID)
        guard FileManager.default.fileExists(atPath: folder.path) else { return false }
        try makeDirectory(layout.trashDirectory)
        let trash = layout.trashDirectory.appending(path: "\(packID).\(UUID.random().uuidString)")
        guard rename(folder.path, trash.path) == 0 else { throw ioError(folder, "cannot be removed") }
        syncDirectory(layout.root)
        try? FileManager.default.removeItem(at: trash)
        return true
    }

    /// Deletes what interrupted installs and removals left: staged versions, the trash, temporary
    /// links, and version folders that are not current. Call it when nothing is installing, as the
    /// system does when it starts.
    /// - Parameter kept: Names in the staging folder to keep: the files of archives whose download
    ///   goes on after the restart (written as they arrived, ``ArchiveFileSink``).
    /// - Returns: The paths removed, relative to the packs folder.
    @discardableResult
    public func removeLeftovers(keeping kept: Set<String> = []) -> [String] {
        let fileManager = FileManager.default
        var removed: [String] = []
        func delete(_ url: URL, _ name: String) {
            if (try? fileManager.removeItem(at: url)) != nil { removed.append(name) }
        }
        for folder in [layout.stagingDirectory, layout.trashDirectory] {
            for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
                where folder != layout.stagingDirectory || !kept.contains(name) {
                delete(folder.appending(path: name), "\(folder.lastPathComponent)/\(name)")
            }
        }
        for pack in (try? fileManager.contentsOfDirectory(atPath: layout.root.path)) ?? [] where !pack.hasPrefix(".") {
            let folder = layout.packDirectory(pack)
            guard let current = try? fileManager.destinationOfSymbolicLink(atPath: layout.currentLink(pack).path) else {
                delete(folder, pack)  // no version was ever made current: nothing of it is visible
                continue
            }
            for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
                where name != AssetPackContainerLayout.currentLinkName && name != current {
                delete(folder.appending(path: name), "\(pack)/\(name)")
            }
        }
        return removed.sorted()
    }

    /// Bytes the pack's files occupy on disk, every version included.
    public func diskUsage(of packID: String) -> Int64 {
        guard AssetPackIdentifier.problem(with: packID) == nil else { return 0 }
        return Self.diskUsage(at: layout.packDirectory(packID).path)
    }

    private static func diskUsage(at path: String) -> Int64 {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        var total = Int64(status.st_blocks) * 512
        if (status.st_mode & S_IFMT) == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                total += diskUsage(at: path + "/" + name)
            }
        }
        return total
    }

    /// A folder of this packs folder's staging area, or `nil` for any other.
    private func stagedFolder(_ folder: URL) -> URL? {
        folder.deletingLastPathComponent().standardizedFileURL.path == layout.stagingDirectory.standardizedFileURL.path
            && !folder.lastPathComponent.hasPrefix(".") ? folder : nil
    }

    /// Points `current` at a version by renaming a new link over the old one.
    private func makeCurrent(_ packID: String, version: Int) throws(AssetPackArchiveError) {
        let folder = layout.packDirectory(packID)
        let temporary = folder.appending(path: ".current.\(UUID.random().uuidString)")
        guard symlink(AssetPackContainerLayout.versionFolderName(version), temporary.path) == 0 else {
            throw ioError(temporary, "cannot be created")
        }
        guard rename(temporary.path, layout.currentLink(packID).path) == 0 else {
            unlink(temporary.path)
            throw ioError(layout.currentLink(packID), "cannot be replaced")
        }
        syncDirectory(folder)
    }

    /// Moves a folder to the trash in one rename, then deletes it; a crash in between leaves it in the trash.
    private func discard(_ folder: URL) {
        let trash = layout.trashDirectory.appending(path: "\(folder.lastPathComponent).\(UUID.random().uuidString)")
        if rename(folder.path, trash.path) == 0 {
            try? FileManager.default.removeItem(at: trash)
        } else {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Makes (or finds) a folder of the layout one component at a time from its root, never
    /// through a link: the layout lies in a container its apps can change.
    private func makeDirectory(_ folder: URL) throws(AssetPackArchiveError) {
        do {
            // The root itself is the caller's to trust (the service checks it from the device root).
            try FileManager.default.createDirectory(at: layout.root, withIntermediateDirectories: true)
            close(try LinkRefusingFolder.open(folder, under: layout.root, creating: true))
        } catch let error as LinkRefusingFile.Failure {
            throw AssetPackArchiveError(.io, path: error.path, problem: "cannot be used: \(error.reason).")
        } catch {
            throw AssetPackArchiveError(.io, path: layout.root.path, problem: "cannot be created (\(error.localizedDescription)).")
        }
    }

    private func syncDirectory(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private func ioError(_ url: URL, _ what: String) -> AssetPackArchiveError {
        AssetPackArchiveError(.io, path: url.path, problem: "\(what) (\(errnoText())).")
    }
}
