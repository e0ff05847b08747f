/*
Abstract:
Sends a signal to one named thread of another process, as a crash on that thread would arrive.
*/

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The threads of a process whose kernel name (`/proc/PID/task/TID/comm`) starts with `prefix`.
public func threads(of pid: Int32, namedWithPrefix prefix: String) -> [(tid: Int32, name: String)] {
    let tasks = "/proc/\(pid)/task"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return [] }
    return entries.compactMap { entry in
        guard let tid = Int32(entry),
              let name = try? String(contentsOfFile: "\(tasks)/\(entry)/comm", encoding: .utf8)
        else { return nil }
        let trimmed = name.trimmingCharacters(in: .newlines)
        return trimmed.hasPrefix(prefix) ? (tid, trimmed) : nil
    }
}

/// Sends `signal` to thread `tid` of process `pid` (`tgkill(2)`), so the signal handler runs on that
/// thread, as it does when the thread itself faults; `kill(2)` would let the kernel pick any thread.
/// - Returns: Whether the signal was sent.
@discardableResult
public func signalThread(_ tid: Int32, of pid: Int32, with signal: Int32) -> Bool {
    // Swift's Glibc module leaves tgkill out (glibc declares it for _GNU_SOURCE only); glibc exports it.
    typealias TGKill = @convention(c) (Int32, Int32, Int32) -> Int32
    guard let symbol = dlsym(nil, "tgkill") else { return false }
    return unsafeBitCast(symbol, to: TGKill.self)(pid, tid, signal) == 0
}
