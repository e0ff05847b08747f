/*
Abstract:
Delivers each status update to every watcher in the order it happened, and ends a pack's sequences when its download ends.
*/

import Foundation
import Synchronization

/// The watchers of ``AssetPackManager/statusUpdates`` and ``AssetPackManager/statusUpdates(forAssetPackWithID:)``.
///
/// Each watcher has its own unbounded stream, and ``publish(_:)`` yields to all of them before it
/// returns, so every watcher sees every update after it started watching, in one order.
final class AssetPackStatusBroadcaster: Sendable {
    private struct Watcher {
        let packID: String?
        let continuation: AsyncStream<AssetPackManager.DownloadStatusUpdate>.Continuation
    }

    private let watchers = Mutex<(next: UInt64, all: [UInt64: Watcher])>((1, [:]))

    /// Starts a watcher, of one pack's updates or of all.
    /// - Parameter packID: The pack to watch, or `nil` for every pack.
    /// - Returns: The watcher's updates; a pack's stream finishes after its finished or failed update.
    func watch(packID: String?) -> AsyncStream<AssetPackManager.DownloadStatusUpdate> {
        watchUntilStopped(packID: packID).updates
    }

    /// Starts a watcher and returns, with its updates, what stops it (for a watcher that may never
    /// be iterated, whose stream alone would keep it registered).
    func watchUntilStopped(packID: String?) -> (updates: AsyncStream<AssetPackManager.DownloadStatusUpdate>, stop: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream<AssetPackManager.DownloadStatusUpdate>.makeStream()
        let id = watchers.withLock { state in
            let id = state.next
            state.next += 1
            state.all[id] = Watcher(packID: packID, continuation: continuation)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.watchers.withLock { $0.all.removeValue(forKey: id) }
        }
        return (stream, { continuation.finish() })
    }

    /// Delivers an update to every watcher it concerns.
    func publish(_ update: AssetPackManager.DownloadStatusUpdate) {
        let packID = update.assetPack.id
        let (targets, ended) = watchers.withLock { state in
            let targets = state.all.filter { $0.value.packID == nil || $0.value.packID == packID }
                .sorted { $0.key < $1.key }.map(\.value.continuation)
            var ended: [AsyncStream<AssetPackManager.DownloadStatusUpdate>.Continuation] = []
            if update.endsDownload {
                for (id, watcher) in state.all where watcher.packID == packID {
                    state.all[id] = nil
                    ended.append(watcher.continuation)
                }
            }
            return (targets, ended)
        }
        // Yielded outside the lock: a continuation's termination handler takes it again.
        for continuation in targets { continuation.yield(update) }
        for continuation in ended { continuation.finish() }
    }

    /// How many watchers there are, for tests.
    var watcherCount: Int { watchers.withLock { $0.all.count } }
}

/// A watcher started before anyone iterates it: the first iteration takes its updates, and one that
/// no iteration takes is stopped when the sequence that made it goes.
final class PreparedStatusWatch: Sendable {
    private struct Pending: Sendable {
        var updates: AsyncStream<AssetPackManager.DownloadStatusUpdate>
        var stop: @Sendable () -> Void
    }

    private let pending: Mutex<Pending?>

    init(_ watch: (updates: AsyncStream<AssetPackManager.DownloadStatusUpdate>, stop: @Sendable () -> Void)) {
        pending = Mutex(Pending(updates: watch.updates, stop: watch.stop))
    }

    /// The updates, to the first caller only.
    func take() -> AsyncStream<AssetPackManager.DownloadStatusUpdate>? {
        pending.withLock { pending in
            let updates = pending?.updates
            pending = nil
            return updates
        }
    }

    deinit {
        let stop = pending.withLock { $0?.stop }
        stop?()
    }
}
