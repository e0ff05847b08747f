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
        let items = Mutex<[(@Sendable () -> Void)?]>([])
        let available = DispatchSemaphore(value: 0)

        func post(_ item: (@Sendable () -> Void)?) {
            items.withLock { $0.append(item) }
            available.signal()
        }

        func next() -> (@Sendable () -> Void)? {
            available.wait()
            return items.withLock { $0.removeFirst() }
        }
    }

    private let mailbox = Mailbox()

    /// Starts the thread.
    /// - Parameter name: The thread's name, shown in debuggers and crash logs.
    package init(name: String) {
        let thread = Thread { [mailbox] in
            while let work = mailbox.next() { work() }
        }
        thread.name = name
        thread.start()
    }

    /// Lets the thread finish the work already submitted, then end.
    deinit { mailbox.post(nil) }

    /// Runs a closure on the thread after everything submitted before it.
    /// - Parameter work: The closure.
    package func async(_ work: @escaping @Sendable () -> Void) {
        mailbox.post(work)
    }
}
