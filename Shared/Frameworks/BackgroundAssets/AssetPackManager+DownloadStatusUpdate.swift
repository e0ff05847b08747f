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
    /// Each iteration receives the updates posted after it starts, in the order they happened. The
    /// sequence of all packs never finishes; the sequence of one pack finishes after yielding
    /// ``DownloadStatusUpdate/finished(_:)`` or ``DownloadStatusUpdate/failed(_:_:)``.
    /// - Note: Apple declares `statusUpdates` with an opaque type (`some Sendable & AsyncSequence`);
    ///   here it is this named type, with the same conformances, so it can be a stored `let` too.
    public struct StatusUpdates: AsyncSequence, Sendable {
        public typealias Element = DownloadStatusUpdate
        public typealias Failure = Never

        let broadcaster: AssetPackStatusBroadcaster
        let listener: AssetPackEventListener
        let packID: String?

        /// Starts receiving updates.
        public func makeAsyncIterator() -> AsyncIterator {
            let stream = broadcaster.watch(packID: packID)
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
