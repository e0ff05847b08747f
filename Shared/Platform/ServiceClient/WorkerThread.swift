/*
Abstract:
A thread that runs closures one at a time, in order, independent of Dispatch's worker pool.
*/

import Dispatch
import Foundation
import Synchronization

/// Runs submitted closures on its own thread, first in, first out.
///
/// The framework's blocking calls wait on work done here (connecting, sending), and callbacks that
/// may themselves block (a delegate fetching downloads) run here too. A thread of its own means
/// none of that depends on a free thread in Dispatch's or Swift's shared pools, which are as small
/// as the number of cores and could otherwise be exhausted by blocked callers.
package final class WorkerThread: Sendable {
    /// The work waiting to run; `nil` tells the thread to finish.
    private final class Mailbox: Sendable {
        struct Contents {
            var items: [(@Sendable () -> Void)?] = []
            /// Work posted and not yet finished, the one running included.
            var unfinished = 0
            /// Whether a caller runs work on its own thread (``WorkerThread/runHereIfIdle(_:)``).
            var isRunningElsewhere = false
            /// Whether the thread waits for that work before running what was posted after it.
            var threadWaits = false
        }

        let contents = Mutex(Contents())
        let available = DispatchSemaphore(value: 0)
        let ranElsewhere = DispatchSemaphore(value: 0)

        func post(_ item: (@Sendable () -> Void)?) {
            contents.withLock { contents in
                contents.items.append(item)
                contents.unfinished += 1
            }
            available.signal()
        }

        /// Runs the next item in order, after any work a caller is running on its own thread.
        /// - Returns: `false` once told to finish.
        func runNext() -> Bool {
            available.wait()
            let (item, waits) = contents.withLock { contents in
                let item = contents.items.removeFirst()
                contents.threadWaits = contents.isRunningElsewhere
                return (item, contents.threadWaits)
            }
            if waits { ranElsewhere.wait() }
            guard let item else { return false }
            item()
            contents.withLock { $0.unfinished -= 1 }
            return true
        }

        func runHereIfIdle(_ work: () -> Bool) -> Bool {
            let isIdle = contents.withLock { contents in
                guard contents.unfinished == 0, !contents.isRunningElsewhere else { return false }
                contents.isRunningElsewhere = true
                return true
            }
            guard isIdle else { return false }
            let ran = work()
            let threadWaits = contents.withLock { contents in
                contents.isRunningElsewhere = false
                defer { contents.threadWaits = false }
                return contents.threadWaits
            }
            if threadWaits { ranElsewhere.signal() }
            return ran
        }
    }

    private let mailbox = Mailbox()

    /// Starts the thread.
    /// - Parameter name: The thread's name, shown by `ps -L`, debuggers and crash logs; at most
    ///   its first 15 bytes are kept (``Foundation/Thread/start(named:stackSize:_:)``).
    package init(name: String) {
        Thread.start(named: name) { [mailbox] in
            while mailbox.runNext() {}
        }
    }

    /// Lets the thread finish the work already submitted, then end.
    deinit { mailbox.post(nil) }

    /// Runs a closure on the thread after everything submitted before it.
    /// - Parameter work: The closure.
    package func async(_ work: @escaping @Sendable () -> Void) {
        mailbox.post(work)
    }

    /// Runs `work` on the caller's thread when nothing submitted is waiting or running, in the
    /// same order as if it had been submitted: what is submitted while it runs waits for it.
    ///
    /// The caller saves the hand-over to the thread (and, when it waits for the work, back), which
    /// on a busy machine can take longer than the work.
    /// - Parameter work: The work; it returns `false` when it could not be done here after all.
    /// - Returns: Whether `work` ran here and returned `true`; when not, submit it with ``async(_:)``.
    package func runHereIfIdle(_ work: () -> Bool) -> Bool {
        mailbox.runHereIfIdle(work)
    }
}
