/*
Abstract:
Pack archives digested and their files written where they are installed from while their bytes arrive, by download, for the unpack to check and install without a second pass over them.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import Synchronization
import SystemLogging

/// Digests every pack archive as the queue's transfers receive it, writes its files into the app
/// group's staging area as they come, and keeps both for its unpack.
///
/// The staging file of a pack archive keeps only what is not a file's bytes (the header and the
/// trailing digest); the files' bytes go straight into a folder of the packs' staging area, which
/// the unpack syncs and renames into place once the digests are checked, instead of copying the
/// files out of the archive. So the archive's holes can be filled by nobody else: each arrival
/// saves its state at every checkpoint (``ArrivalStateFiles``), and a restarted service restores
/// it (``restore(rows:)``), so the download resumes from its last checkpoint and an archive that
/// finished before the restart is unpacked from the files kept. A download whose state is missing
/// or does not fit starts over from zero.
///
/// The queue asks for an observer each time a transfer of a pack archive starts
/// (``DownloadQueue/observeBodies(with:)``); every attempt of one download gets the same one.
final class ArchiveArrivals: Sendable {
    private let paths: DevicePaths
    private let arrivals = Mutex<[Int64: ArrivingArchive]>([:])
    private let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")

    /// Creates the arrivals of a device root's app groups.
    init(paths: DevicePaths) {
        self.paths = paths
    }

    /// The observer of a download's transfers, when it is a pack archive's.
    func observer(for row: DownloadRow) -> (any TransferBodyObserver)? {
        guard row.descriptor.kind == .assetPack else { return nil }
        return arrivals.withLock { arrivals in
            if let arriving = arrivals[row.id] { return arriving }
            let arriving = ArrivingArchive(staging: staging(of: row), name: row.descriptor.identifier,
                                           saving: ArrivalStateFiles(paths: paths, rowID: row.id))
            arrivals[row.id] = arriving
            return arriving
        }
    }

    /// Takes up the arrivals an earlier run of the service saved, for the pack downloads still in
    /// the queue, and deletes every other saved state. Call it when the service starts, before
    /// any transfer runs.
    /// - Parameter rows: The pack downloads still in the queue, or finished and not yet unpacked.
    /// - Returns: The staging folders the restored arrivals write into, by app group: the staging
    ///   area's leftovers but these are deleted.
    func restore(rows: [DownloadRow]) -> [String: Set<String>] {
        var kept: [String: Set<String>] = [:]
        var restored: [Int64: ArrivingArchive] = [:]
        for row in rows where row.descriptor.kind == .assetPack {
            let files = ArrivalStateFiles(paths: paths, rowID: row.id)
            guard files.exists else { continue }
            let download = "\(row.bundleIdentifier)/\(row.descriptor.identifier)"
            do throws(AssetPackArchiveError) {
                let arriving = try ArrivingArchive(restoring: files, staging: staging(of: row), name: row.descriptor.identifier)
                restored[row.id] = arriving
                if let folder = arriving.folderName { kept[row.descriptor.applicationGroupIdentifier, default: []].insert(folder) }
                logger.info("The asset-pack download \(download) goes on from the \(arriving.byteCount) bytes its last checkpoint saved.")
            } catch {
                files.delete()
                logger.notice("The asset-pack download \(download) starts over from zero: its saved state cannot be continued (\(error.description)).")
            }
        }
        arrivals.withLock { $0.merge(restored) { _, restored in restored } }
        deleteSavedStates(except: Set(restored.keys))
        return kept
    }

    /// The digests of a finished download's file, if its bytes were all seen as they arrived (in
    /// this run, or in an earlier one that saved them), with the folder its files were written
    /// into when they all were; `nil` when they were not, or do not cover `archive` whole.
    func take(rowID: Int64, archive: URL) -> AssetPackArchiveDigests? {
        guard let arriving = arrivals.withLock({ $0.removeValue(forKey: rowID) }) else { return nil }
        var status = stat()
        guard stat(archive.path, &status) == 0, arriving.byteCount == Int64(status.st_size) else {
            arriving.discard()
            return nil
        }
        return arriving.digests()
    }

    /// Forgets a download that will not be unpacked, and deletes the files it wrote.
    func forget(rowID: Int64) {
        arrivals.withLock { $0.removeValue(forKey: rowID) }?.discard()
    }

    /// An unpack ended: the state saved for it goes.
    func release(rowID: Int64) {
        ArrivalStateFiles(paths: paths, rowID: rowID).delete()
    }

    /// The container's staging folder for the row's files, or `nil` (the archive then keeps every
    /// byte in the service's own staging file) when the group has no container or a link was planted
    /// among its packs' folders, which the unpack then refuses by name.
    private func staging(of row: DownloadRow) -> URL? {
        guard let container = paths.container(forAppGroup: row.descriptor.applicationGroupIdentifier) else { return nil }
        let layout = AssetPackContainerLayout(appGroupContainer: container)
        guard let staging = try? LinkRefusingFolder.open(layout.stagingDirectory, under: paths.root, creating: true) else {
            return nil
        }
        close(staging)
        return layout.stagingDirectory
    }

    /// Deletes the saved states of the service's staging folder that no download restored.
    private func deleteSavedStates(except kept: Set<Int64>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.stagingDirectory.path)) ?? []
        for name in names {
            // A temporary file a crash left in the middle of a save goes too.
            let isTemporary = name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(ArrivalStateFiles.stateSuffix)
            guard isTemporary || ArrivalStateFiles.rowID(ofFileNamed: name).map({ !kept.contains($0) }) == true else { continue }
            unlink(paths.stagingDirectory.appending(path: name).path)
        }
    }
}
