/*
Abstract:
The digests of pack archives computed while their bytes arrive, by download, for the unpack to check without reading them again.
*/

import AssetPackArchive
import BackgroundAssetsIPC
import Foundation
import Synchronization

/// Digests every pack archive as the queue's transfers write it, and keeps the result for its unpack.
///
/// The queue asks for an observer when a transfer of a pack archive starts
/// (``DownloadQueue/observeBodies(with:)``); a later attempt of the same download replaces the
/// earlier one's. The unpack takes the digests once the download finished; they are only a
/// shortcut: whatever is missing or does not cover the file exactly (a restart of the service
/// lost them, a transfer found the file complete without a body) is computed by reading the file.
final class ArchiveArrivals: Sendable {
    private let digesters = Mutex<[Int64: ArrivingArchive]>([:])

    /// An observer for a download's transfer, when it is a pack archive's.
    func observer(for row: DownloadRow) -> (any TransferBodyObserver)? {
        guard row.descriptor.kind == .assetPack else { return nil }
        let arriving = ArrivingArchive()
        digesters.withLock { $0[row.id] = arriving }
        return arriving
    }

    /// The digests of a finished download's file, if its bytes were all seen as they arrived.
    func take(rowID: Int64) -> AssetPackArchiveDigests? {
        digesters.withLock { $0.removeValue(forKey: rowID) }?.digests()
    }

    /// Forgets a download that will not be unpacked.
    func forget(rowID: Int64) {
        _ = digesters.withLock { $0.removeValue(forKey: rowID) }
    }
}

/// One transfer's digester: the bytes before the body are read back from the staging file once,
/// then every byte written is added as it is written.
final class ArrivingArchive: TransferBodyObserver, @unchecked Sendable {
    // `lock` guards the two vars below (the transfer's thread writes, the unpack's reads); hence
    // the unchecked Sendable: a Mutex would not let a borrowed buffer reach its state.
    private let lock = NSLock()
    // The whole archive's digest only: the manifests ba-package makes give it, which makes each
    // file's redundant; an archive listed without one is read again for its files' digests.
    private var digester = AssetPackArchiveDigester(digestsFiles: false)
    /// Whether every byte of the file so far went through the digester.
    private var isWhole = false

    func bodyBegan(at offset: Int64, partFile: Int32) {
        lock.withLock {
            digester = AssetPackArchiveDigester(digestsFiles: false)
            isWhole = (try? digester.read(partFile, upTo: offset, path: "")) != nil && digester.byteCount == offset
        }
    }

    func bodyWrote(_ bytes: UnsafeRawBufferPointer) {
        lock.withLock {
            if isWhole { digester.update(bytes) }
        }
    }

    /// The digests of the bytes seen, or `nil` when some were missed.
    func digests() -> AssetPackArchiveDigests? {
        lock.withLock { isWhole ? digester.finish() : nil }
    }
}
