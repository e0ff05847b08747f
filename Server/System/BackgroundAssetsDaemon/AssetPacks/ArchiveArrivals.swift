/*
Abstract:
Pack archives digested and their files written where they are installed from while their bytes arrive, by download, for the unpack to check and install without a second pass over them.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import Synchronization

/// Digests every pack archive as the queue's transfers receive it, writes its files into the app
/// group's staging area as they come, and keeps both for its unpack.
///
/// The staging file of a pack archive keeps only what is not a file's bytes (the header and the
/// trailing digest); the files' bytes go straight into a folder of the packs' staging area, which
/// the unpack syncs and renames into place once the digests are checked, instead of copying the
/// files out of the archive. So the archive's holes can be filled by nobody else, and its download
/// resumes only from where this process's arrival left off; after a restart of the service (which
/// deletes the staging area's leftovers) it starts over from zero, and an archive that finished
/// before the restart is fetched again (``AssetPackCoordinator``).
///
/// The queue asks for an observer each time a transfer of a pack archive starts
/// (``DownloadQueue/observeBodies(with:)``); every attempt of one download gets the same one.
final class ArchiveArrivals: Sendable {
    private let paths: DevicePaths
    private let arrivals = Mutex<[Int64: ArrivingArchive]>([:])

    /// Creates the arrivals of a device root's app groups.
    init(paths: DevicePaths) {
        self.paths = paths
    }

    /// The observer of a download's transfers, when it is a pack archive's.
    func observer(for row: DownloadRow) -> (any TransferBodyObserver)? {
        guard row.descriptor.kind == .assetPack else { return nil }
        let staging = paths.container(forAppGroup: row.descriptor.applicationGroupIdentifier)
            .map { AssetPackContainerLayout(appGroupContainer: $0).stagingDirectory }
        return arrivals.withLock { arrivals in
            if let arriving = arrivals[row.id] { return arriving }
            let arriving = ArrivingArchive(staging: staging, name: row.descriptor.identifier)
            arrivals[row.id] = arriving
            return arriving
        }
    }

    /// The digests of a finished download's file, if its bytes were all seen as they arrived, with
    /// the folder its files were written into when they all were; `nil` when this process did not
    /// see them (it started after they arrived).
    func take(rowID: Int64) -> AssetPackArchiveDigests? {
        arrivals.withLock { $0.removeValue(forKey: rowID) }?.digests()
    }

    /// Forgets a download that will not be unpacked, and deletes the files it wrote.
    func forget(rowID: Int64) {
        arrivals.withLock { $0.removeValue(forKey: rowID) }?.discard()
    }
}

/// One download's digester and files, across its transfer attempts.
final class ArrivingArchive: TransferBodyObserver, @unchecked Sendable {
    // `lock` guards the vars below (the transfer's thread writes, the unpack's reads); hence
    // the unchecked Sendable: a Mutex would not let a borrowed buffer reach its state.
    private let lock = NSLock()
    private let staging: URL?
    private let name: String
    private var sink: ArchiveFileSink?
    // The whole archive's digest only: the manifests ba-package makes give it, which makes each
    // file's redundant; for an archive listed without one, the unpack digests the files written.
    private var digester = AssetPackArchiveDigester(digestsFiles: false)
    /// Whether a body was seen, and every byte of the file so far went through the digester.
    private var isWhole = false
    /// Whether some bytes went to the sink's files instead of the staging file, which then has a
    /// hole that only this arrival can account for.
    private var storedBytes = false

    /// Creates an observer that writes the archive's files into a new folder of `staging`, named
    /// after `name`, the download's identifier (`asset-pack.ID.vVERSION`): an archive of another
    /// pack version has its files written nowhere. With no staging folder, it only digests.
    init(staging: URL? = nil, name: String = "archive") {
        self.staging = staging
        self.name = name
    }

    func canResume(at offset: Int64) -> Bool {
        lock.withLock { isWhole && (digester.byteCount == offset || !storedBytes) }
    }

    func bodyBegan(at offset: Int64, partFile: Int32) {
        lock.withLock {
            // The next bytes of the same body: this attempt goes on where the last one stopped.
            if offset > 0, isWhole, digester.byteCount == offset { return }
            sink?.discard()
            sink = staging.flatMap { staging in
                // The staging folder exists once a pack was unpacked; created here for the first.
                try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
                return ArchiveFileSink(folder: staging.appending(path: "\(name).\(UUID().uuidString)", directoryHint: .isDirectory),
                                       expecting: AssetPackDownloadIdentifier(parsing: name))
            }
            digester = AssetPackArchiveDigester(digestsFiles: false, sink: sink)
            storedBytes = false
            // The staging file holds every byte before `offset` (``canResume(at:)`` saw to it).
            isWhole = (try? digester.read(partFile, upTo: offset, path: "")) != nil && digester.byteCount == offset
        }
    }

    func bodyArrived(_ bytes: UnsafeRawBufferPointer) throws(TransferError) -> Bool {
        let (stored, lostProblem) = lock.withLock { () -> (Bool, String?) in
            guard isWhole else { return (false, nil) }
            let stored = digester.update(bytes)
            // Earlier bytes are only in the sink's files, which can no longer be written: the
            // staging file cannot be completed either.
            if !stored, storedBytes, let problem = sink?.problem { return (false, problem) }
            storedBytes = storedBytes || stored
            return (stored, nil)
        }
        if let lostProblem {
            throw TransferError(.local, .localFile(errno: EIO), "the asset pack's files cannot be written into "
                + "\(staging?.path ?? "its staging folder"): \(lostProblem). Free space on the device, then ask for the pack again")
        }
        return stored
    }

    /// The digests of the bytes seen, or `nil` when some were missed; without them, the files
    /// written are deleted.
    func digests() -> AssetPackArchiveDigests? {
        lock.withLock {
            let digests = isWhole ? digester.finish() : nil
            if digests?.unpacked == nil { sink?.discard() }
            sink = nil
            return digests
        }
    }

    /// Deletes the files written.
    func discard() {
        lock.withLock {
            sink?.discard()
            sink = nil
        }
    }
}
