/*
Abstract:
What the kernel says a thread of this process is doing, so a test waits until one is blocked in a system call instead of sleeping.
*/

import Foundation
import Synchronization

/// A thread of the test process, seen through `/proc/self/task`: a test learns that the thread is
/// blocked in `accept(2)` before it closes the listener under it, rather than giving it a while.
final class BlockedThread: Sendable {
    /// The number of `accept(2)` on this machine's architecture (`SYS_accept` does not reach Swift).
    static var acceptCall: Int? {
        #if arch(x86_64)
        43
        #elseif arch(arm64)
        202
        #else
        nil
        #endif
    }

    private let threadID = Mutex<String?>(nil)

    init() {}

    /// Records the calling thread as the one to watch; call it on that thread, before it blocks.
    func recordCurrentThread() {
        // "/proc/thread-self" links to "PID/task/TID": the one way to the thread id, as glibc's
        // gettid() does not reach Swift.
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        threadID.withLock { $0 = target?.split(separator: "/").last.map(String.init) }
    }

    /// The system call the recorded thread is blocked in, or `nil` while it runs or before it is recorded.
    var blockedCall: Int? {
        guard let id = threadID.withLock({ $0 }),
            let line = try? String(contentsOfFile: "/proc/self/task/\(id)/syscall", encoding: .utf8)
        else { return nil }
        // "43 0x3 0x0 …" while blocked in call 43; "running" while it runs.
        return line.split(separator: " ").first.flatMap { Int($0) }
    }
}
