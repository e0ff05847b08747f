/*
Abstract:
An actor that runs on a thread of its own, and the thread, which ends when the actor goes away.
*/

/// An actor whose jobs run on a thread of its own (see ``DedicatedThreadExecutor``): the stores,
/// whose every call blocks in SQLite, and the queue and the reader that call them.
///
/// Conforming gives the actor its executor: it declares only its ``thread``.
public protocol OwnThreadActor: Actor {
    /// The thread the actor's jobs run on.
    nonisolated var thread: ActorThread { get }
}

extension OwnThreadActor {
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        thread.executor.asUnownedSerialExecutor()
    }
}

/// The thread of one ``OwnThreadActor``. The actor holds the only reference, so the thread ends
/// once the actor is gone, after the jobs already queued have run.
public final class ActorThread: Sendable {
    let executor: DedicatedThreadExecutor

    /// Starts a thread.
    /// - Parameter name: The thread's name, as `ps -L` and backtraces show it; the kernel keeps 15 bytes.
    public init(name: String) {
        executor = DedicatedThreadExecutor(name: name)
    }

    deinit {
        executor.stop()
    }
}
