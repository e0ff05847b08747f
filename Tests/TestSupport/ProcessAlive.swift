/*
Abstract:
Whether a process the test started, or found, still runs, and whether every thread of one has gone.
*/

import Foundation

/// Whether a process is alive: it exists and is not a zombie waiting to be reaped.
public func isProcessAlive(_ pid: Int32) -> Bool {
    guard let state = schedulingState(inStatFile: "/proc/\(pid)/stat") else { return false }
    return state != "Z"
}

/// Whether every thread of a process has exited (or the process is gone), so everything it held,
/// its listening socket among them, is closed. After SIGKILL the process shows as a zombie as soon
/// as its first thread is one (``isProcessAlive(_:)`` says no), while the others are still on their
/// way out holding its descriptors, and a client connecting then is accepted, then reset.
public func hasExitedEveryThread(_ pid: Int32) -> Bool {
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return true }
    return threads.allSatisfy { thread in
        schedulingState(inStatFile: "/proc/\(pid)/task/\(thread)/stat").map { $0 == "Z" || $0 == "X" } ?? true
    }
}

/// The state letter of a `/proc` stat file (`R`, `S`, `Z`...), or nil when it cannot be read.
private func schedulingState(inStatFile path: String) -> Character? {
    guard let stat = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    // The state follows the parenthesised command name, which may itself contain spaces.
    guard let close = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
}
