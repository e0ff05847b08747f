/*
Abstract:
Whether a process the test started, or found, still runs.
*/

import Foundation

/// Whether a process is alive: it exists and is not a zombie waiting to be reaped.
public func isProcessAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    // The state follows the parenthesised command name, which may itself contain spaces.
    guard let close = stat.lastIndex(of: ")") else { return false }
    return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
}
