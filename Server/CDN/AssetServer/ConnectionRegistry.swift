/*
Abstract:
The set of open client sockets, so shutdown can wait for in-flight responses and then cut off stragglers.
*/

import Dispatch
import Foundation
import Synchronization

/// Tracks open connections for the connection limit and for graceful shutdown.
final class ConnectionRegistry: Sendable {
    private struct State {
        var descriptors: Set<Int32> = []
        var drained: DispatchSemaphore?
    }

    private let state = Mutex(State())

    /// The number of open connections.
    var count: Int { state.withLock { $0.descriptors.count } }

    /// Registers a new connection unless `limit` connections are already open.
    func insert(_ descriptor: Int32, limit: Int) -> Bool {
        state.withLock { state in
            guard state.descriptors.count < limit else { return false }
            state.descriptors.insert(descriptor)
            return true
        }
    }

    /// Unregisters and closes a connection.
    ///
    /// Closing after removal, never before, means ``forceClose()`` cannot touch a descriptor number that was
    /// already reused by another connection.
    func remove(andClose descriptor: Int32) {
        let drained = state.withLock { state -> DispatchSemaphore? in
            state.descriptors.remove(descriptor)
            return state.descriptors.isEmpty ? state.drained : nil
        }
        close(descriptor)
        drained?.signal()
    }

    /// Waits until every connection has closed, or `timeout` nanoseconds pass; returns whether all closed.
    func waitUntilEmpty(timeout: UInt64) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let empty = state.withLock { state in
            state.drained = semaphore
            return state.descriptors.isEmpty
        }
        if empty { return true }
        return semaphore.wait(timeout: .now() + .nanoseconds(Int(min(timeout, UInt64(Int.max))))) == .success
    }

    /// Shuts down every remaining socket, which fails their pending reads and writes at once.
    func forceClose() {
        state.withLock { state in
            for descriptor in state.descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }
}
