/*
Abstract:
The status updates of asset-pack downloads, and the sequences that deliver them.
*/

import Foundation

extension AssetPackManager {
    /// Statuses of an asset-pack download.
    ///
    /// An asset pack is available locally only after a ``finished(_:)`` status update is posted.
    public enum DownloadStatusUpdate: Sendable {
        /// A status update that indicates that the download began or resumed after being paused.
        case began(AssetPack)
        /// A status update that indicates that the download paused.
        case paused(AssetPack)
        /// A status update that indicates that the download is in progress.
        case downloading(AssetPack, Progress)
        /// A status update that indicates that the download completed and that the asset pack is available locally.
        case finished(AssetPack)
        /// A status update that indicates that the download failed.
        case failed(AssetPack, any Error)

        /// The pack the update is about.
        var assetPack: AssetPack {
            switch self {
            case let .began(pack), let .paused(pack), let .downloading(pack, _), let .finished(pack), let .failed(pack, _):
                pack
            }
        }

        /// Whether the update ends the download.
        var endsDownload: Bool {
            switch self {
            case .finished, .failed: true
            default: false
            }
        }
    }

    /// An asynchronous sequence of download-status updates, of every pack or of one.
    ///
    /// The updates come in the order they happened. The sequence of all packs never finishes, and
    /// each of its iterations receives the updates posted after it starts. The sequence of one pack
    /// finishes after yielding ``DownloadStatusUpdate/finished(_:)`` or
    /// ``DownloadStatusUpdate/failed(_:_:)``, and watches from the moment it is made: its first
    /// iteration receives every update posted since, so a watcher made before
    /// `ensureLocalAvailability(of:)` is called misses none, however late its task starts.
    /// - Note: Apple declares `statusUpdates` with an opaque type (`some Sendable & AsyncSequence`);
    ///   here it is this named type, with the same conformances, so it can be a stored `let` too.
    public struct StatusUpdates: AsyncSequence, Sendable {
        public typealias Element = DownloadStatusUpdate
        public typealias Failure = Never

        let broadcaster: AssetPackStatusBroadcaster
        let listener: AssetPackEventListener
        let packID: String?
        /// The watcher started when a pack's sequence was made, for its first iteration.
        private let started: PreparedStatusWatch?

        init(broadcaster: AssetPackStatusBroadcaster, listener: AssetPackEventListener, packID: String?) {
            self.broadcaster = broadcaster
            self.listener = listener
            self.packID = packID
            // The sequence of all packs is a stored property that may never be iterated; it starts
            // watching only when iterated, so no update is kept for nobody.
            started = packID.map { PreparedStatusWatch(broadcaster.watchUntilStopped(packID: $0)) }
            if started != nil { listener.start() }
        }

        /// Starts receiving updates.
        public func makeAsyncIterator() -> AsyncIterator {
            let stream = started?.take() ?? broadcaster.watch(packID: packID)
            listener.start()
            return AsyncIterator(base: stream.makeAsyncIterator())
        }

        /// Iterates the updates.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<DownloadStatusUpdate>.AsyncIterator

            /// The next update, or `nil` when a pack's sequence has finished.
            public mutating func next() async -> DownloadStatusUpdate? {
                await base.next()
            }

            /// The next update, or `nil` when a pack's sequence has finished.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> DownloadStatusUpdate? {
                await base.next(isolation: actor)
            }
        }
    }
}
