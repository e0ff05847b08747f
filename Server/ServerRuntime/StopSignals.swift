/*
Abstract:
SIGINT and SIGTERM for the executables of Server/: blocked everywhere, then awaited on one thread with sigwait.
*/

import Foundation

/// The signals that ask a process to stop, received synchronously rather than in a handler.
///
/// Call ``blockInEveryThread()`` first thing in `main`, before any thread starts, so every thread
/// inherits the mask and the signals wait for ``wait()``. Shutdown then runs as ordinary code,
/// free to lock and to wait, which a signal handler may not.
///
/// The one way the executables of `Server/` stop. The sample app differs on purpose: it is written
/// as an app on Apple platforms would be, with Foundation and Dispatch alone, so it catches the
/// signals with a `DispatchSourceSignal` (`App/InterruptHandler.swift`), which restores the
/// terminal and exits; it never waits for them on a thread of its own.
public struct StopSignals: Sendable {
    private let set: sigset_t

    /// Blocks SIGINT and SIGTERM in the calling thread and in every thread it will start.
    /// - Returns: The signals, to ``wait()`` for.
    public static func blockInEveryThread() -> StopSignals {
        // A parent may have left these ignored, and an ignored signal never reaches sigwait(2).
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return StopSignals(set: set)
    }

    /// The stop signal waiting to be received, if one is: a Ctrl-C reaches a whole process group at
    /// once, so a child may die of it before ``wait()`` has returned.
    public func pending() -> Int32? {
        var pending = sigset_t()
        sigpending(&pending)
        for signal in [SIGINT, SIGTERM] where sigismember(&pending, signal) == 1 { return signal }
        return nil
    }

    /// Blocks the calling thread until SIGINT or SIGTERM arrives.
    /// - Returns: The signal received.
    @discardableResult
    public func wait() -> Int32 {
        var set = set
        var received: Int32 = 0
        sigwait(&set, &received)
        return received
    }
}
