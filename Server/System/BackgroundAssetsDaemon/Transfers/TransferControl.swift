/*
Abstract:
The knobs a running transfer reads on every read: its bandwidth limit and whether to stop.
*/

import Synchronization

/// Shared between a transfer's thread and the scheduler, which can re-limit or stop it at any time.
///
/// Promoting a background download to the foreground lifts its limit here, and the running
/// transfer speeds up on its next read without reconnecting.
final class TransferControl: Sendable {
    private struct State {
        var bytesPerSecond: Int64?
        var isCancelled = false
        var hasOpenedDescriptors = false
    }

    private let state: Mutex<State>

    /// Creates a control.
    /// - Parameter bytesPerSecond: The bandwidth limit, or `nil` for none.
    init(bytesPerSecond: Int64? = nil) {
        state = Mutex(State(bytesPerSecond: bytesPerSecond))
    }

    /// The current bandwidth limit in bytes per second, or `nil` for none.
    var bytesPerSecond: Int64? {
        get { state.withLock { $0.bytesPerSecond } }
        set { state.withLock { $0.bytesPerSecond = newValue } }
    }

    /// Whether the transfer was asked to stop.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the transfer's thread has opened its descriptors (its staging file and its
    /// connection): until then the descriptors it will take are not among those in use, and the
    /// queue counts them itself (``DownloadQueue/mayStartTransfer(besides:)``).
    var hasOpenedDescriptors: Bool { state.withLock { $0.hasOpenedDescriptors } }

    /// Records that the transfer's thread has opened its staging file and its connection.
    func noteDescriptorsOpened() {
        state.withLock { $0.hasOpenedDescriptors = true }
    }

    /// Asks the transfer to stop at its next read; it syncs what it has and throws `.cancelled`.
    func cancel() {
        state.withLock { $0.isCancelled = true }
    }
}
