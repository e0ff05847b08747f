/*
Abstract:
A thread-safe list of handlers for one kind of event that does not go to the delegate.
*/

import Synchronization

/// Handlers that want one kind of event: install progress for the launch gate, entry-point calls
/// for the extension runner, a lost connection for both.
///
/// The connection's reader thread calls ``notify(_:)``, so handlers must return quickly: they
/// hand the event on (to a thread, a task or a stream) rather than do the work there.
final class EventObservers<Event: Sendable>: Sendable {
    /// Receives one event.
    typealias Handler = @Sendable (Event) -> Void

    /// Identifies a handler, to remove it.
    struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct State {
        var nextToken: UInt64 = 0
        var handlers: [(token: Token, handler: Handler)] = []
    }

    private let state = Mutex(State())

    /// Adds a handler.
    /// - Parameter handler: Called with every event until it is removed, on the notifying thread.
    /// - Returns: The token that removes it.
    func add(_ handler: @escaping Handler) -> Token {
        state.withLock { state in
            let token = Token(value: state.nextToken)
            state.nextToken += 1
            state.handlers.append((token, handler))
            return token
        }
    }

    /// Removes a handler; it is not called again once this returns, except by a notification
    /// already under way.
    /// - Parameter token: The token ``add(_:)`` returned.
    func remove(_ token: Token) {
        state.withLock { $0.handlers.removeAll { $0.token == token } }
    }

    /// Calls every handler, in the order they were added.
    /// - Parameter event: The event.
    /// - Returns: Whether any handler was called.
    @discardableResult
    func notify(_ event: Event) -> Bool {
        // Called outside the lock, so a handler may add or remove handlers without deadlocking.
        let handlers = state.withLock { $0.handlers.map(\.handler) }
        for handler in handlers { handler(event) }
        return !handlers.isEmpty
    }
}
