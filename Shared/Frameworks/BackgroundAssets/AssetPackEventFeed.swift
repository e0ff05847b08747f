/*
Abstract:
Hands each asset-pack event the service pushes to every stream opened for it, in the order it arrived.
*/

import AssetPackFormat
import Synchronization

/// The asset-pack events of one connection to the service, fanned out to every subscriber.
///
/// Events arrive on the connection's reader thread; ``publish(_:)`` only yields, so it never blocks
/// the reader, and each subscriber's stream keeps the order the service sent.
final class AssetPackEventFeed: Sendable {
    private let subscribers = Mutex<(next: UInt64, all: [UInt64: AsyncStream<AssetPackEvent>.Continuation])>((1, [:]))

    /// A stream of the events published from now on.
    func subscribe() -> AsyncStream<AssetPackEvent> {
        let (stream, continuation) = AsyncStream<AssetPackEvent>.makeStream()
        let id = subscribers.withLock { state in
            defer { state.next += 1 }
            state.all[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.all.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers an event to every subscriber.
    func publish(_ event: AssetPackEvent) {
        let targets = subscribers.withLock { $0.all.sorted { $0.key < $1.key }.map(\.value) }
        for continuation in targets { continuation.yield(event) }
    }
}
