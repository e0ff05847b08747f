/*
Abstract:
One pack archive's download seen as it arrives: its digests, its files written where they install from, and their state saved at each checkpoint.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import SystemLogging

/// One download's digester and files, across its transfer attempts and, through the state it
/// saves at each checkpoint, across restarts of the service.
final class ArrivingArchive: TransferBodyObserver, @unchecked Sendable {
    // `lock` guards the vars below (the transfer's thread writes, the unpack's reads, the
    // checkpoint's thread saves); hence the unchecked Sendable: a Mutex would not let a borrowed
    // buffer reach its state.
    private let lock = NSLock()
    private let staging: URL?
    private let name: String
    private let files: ArrivalStateFiles?
    private var sink: ArchiveFileSink?
    // The whole archive's digest only: the manifests ba-package makes give it, which makes each
    // file's redundant; for an archive listed without one, the unpack digests the files written.
    private var digester = AssetPackArchiveDigester(digestsFiles: false)
    /// Whether a body was seen, and every byte of the file so far went through the digester.
    private var isWhole = false
    /// Whether some bytes went to the sink's files instead of the staging file, which then has a
    /// hole that only this arrival can account for.
    private var storedBytes = false
    /// How many header bytes the saved header file holds.
    private var savedHeaderCount = 0
    /// Whether the download was forgotten: nothing may be saved for it any more.
    private var isDiscarded = false
    private static let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")

    /// Creates an observer that writes the archive's files into a new folder of `staging`, named
    /// after `name`, the download's identifier (`asset-pack.ID.vVERSION`): an archive of another
    /// pack version has its files written nowhere. With no staging folder, it only digests.
    /// - Parameter files: Where to save its state at each checkpoint, if anywhere.
    init(staging: URL? = nil, name: String = "archive", saving files: ArrivalStateFiles? = nil) {
        self.staging = staging
        self.name = name
        self.files = files
    }

    /// Restores the arrival an earlier run of the service saved: it resumes at the byte of its
    /// last checkpoint, writing on into the same folder.
    /// - Throws: ``AssetPackArchiveError`` (`.unresumable`) saying what is missing or does not fit.
    init(restoring files: ArrivalStateFiles, staging: URL?, name: String) throws(AssetPackArchiveError) {
        self.staging = staging
        self.name = name
        self.files = files
        let (state, header) = try files.load()
        let expected = AssetPackDownloadIdentifier(parsing: name)
        let sink: ArchiveFileSink?
        if let staging {
            sink = try state.resumingSink(in: staging, sealedBytes: header, expecting: expected)
        } else {
            sink = nil
        }
        do throws(AssetPackArchiveError) {
            digester = try AssetPackArchiveDigester(restoring: state.digester, sealedBytes: header, sink: sink)
        } catch {
            sink?.discard()
            throw error
        }
        self.sink = sink
        isWhole = true
        // Whatever followed the checkpoint may have gone to files: only its byte is trusted.
        storedBytes = true
        savedHeaderCount = header.count
    }

    /// The bytes of the archive seen so far.
    var byteCount: Int64 { lock.withLock { digester.byteCount } }

    /// The name of the folder in the staging area the files go into, once there is one.
    var folderName: String? { lock.withLock { sink?.folder.lastPathComponent } }

    func resumableOffset(upTo offset: Int64) -> Int64 {
        lock.withLock {
            guard isWhole else { return 0 }
            // Nothing stored elsewhere: the staging file holds every byte, read again at the body's start.
            guard storedBytes else { return offset }
            return digester.byteCount <= offset ? digester.byteCount : 0
        }
    }

    func bodyBegan(at offset: Int64, partFile: Int32) {
        lock.withLock {
            // The next bytes of the same body: this attempt goes on where the last one stopped.
            if offset > 0, isWhole, digester.byteCount == offset { return }
            sink?.discard()
            files?.delete()
            savedHeaderCount = 0
            sink = staging.flatMap { staging in
                // The staging folder exists once a pack was unpacked; created here for the first.
                try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
                return ArchiveFileSink(folder: staging.appending(path: "\(name).\(UUID.random().uuidString)", directoryHint: .isDirectory),
                                       expecting: AssetPackDownloadIdentifier(parsing: name))
            }
            digester = AssetPackArchiveDigester(digestsFiles: false, sink: sink)
            storedBytes = false
            // The staging file holds every byte before `offset` (``resumableOffset(upTo:)`` saw to it).
            isWhole = (try? digester.read(partFile, upTo: offset, path: "")) != nil && digester.byteCount == offset
        }
    }

    func bodyArrived(_ bytes: UnsafeRawBufferPointer) throws(TransferError) -> Range<Int> {
        let (stored, lostProblem) = lock.withLock { () -> (Range<Int>, String?) in
            guard isWhole else { return (0..<0, nil) }
            let stored = digester.update(bytes)
            // Earlier bytes are only in the sink's files, which can no longer be written: the
            // staging file cannot be completed either.
            if stored.isEmpty, storedBytes, let problem = sink?.problem { return (0..<0, problem) }
            storedBytes = storedBytes || !stored.isEmpty
            return (stored, nil)
        }
        if let lostProblem {
            throw TransferError(.local, .localFile(errno: EIO), "the asset pack's files cannot be written into "
                + "\(staging?.path ?? "its staging folder"): \(lostProblem). Free space on the device, then ask for the pack again")
        }
        return stored
    }

    func checkpoint(at length: Int64) -> (@Sendable () -> Void)? {
        lock.withLock { () -> (@Sendable () -> Void)? in
            guard let files, isWhole, !isDiscarded, length > 0, digester.byteCount == length else { return nil }
            // A sink that stopped holds bytes it cannot account for; the last state saved still can.
            if sink.map({ $0.problem != nil }) == true { return nil }
            let state = ArchiveArrivalState(digester: digester.savedState, sink: sink?.position)
            let sealed = digester.sealedBytes
            let header = sealed.count != savedHeaderCount ? sealed : nil
            let writes = sink?.takeUnsyncedWrites()
            return { [self] in save(state, header: header, writes: writes, into: files) }
        }
    }

    /// Makes the files' bytes durable, then saves the header and the state, in that order: a state
    /// never counts bytes a power cut could take back.
    private func save(_ state: ArchiveArrivalState, header: [UInt8]?, writes: ArchiveSinkWrites?, into files: ArrivalStateFiles) {
        do throws(AssetPackArchiveError) {
            try writes?.sync()
            guard !lock.withLock({ isDiscarded }) else { return }
            if let header {
                try files.saveHeader(header)
                lock.withLock { savedHeaderCount = header.count }
            }
            try files.save(state)
        } catch {
            Self.logger.notice("The asset-pack download \(name) could not save its state at \(state.byteCount) bytes: \(error.description). After a restart of the service it resumes from an earlier checkpoint, or from zero.")
        }
    }

    /// The digests of the bytes seen, or `nil` when some were missed; without them, the files
    /// written and the saved state are deleted. With them, the state stays until the unpack ends
    /// (``ArchiveArrivals/release(rowID:)``), so a restart in between unpacks from it.
    func digests() -> AssetPackArchiveDigests? {
        lock.withLock {
            let digests = isWhole ? digester.finish() : nil
            if digests?.unpacked == nil {
                sink?.discard()
                files?.delete()
            }
            sink = nil
            return digests
        }
    }

    /// Deletes the files written and the saved state.
    func discard() {
        lock.withLock {
            isDiscarded = true
            sink?.discard()
            sink = nil
            files?.delete()
        }
    }
}
