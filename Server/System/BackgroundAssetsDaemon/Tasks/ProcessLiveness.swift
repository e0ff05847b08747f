/*
Abstract:
Whether a client process still runs, so a task is never handed to an app that has just exited.
*/

import Foundation

/// Reads a process's state from `/proc`.
enum ProcessLiveness {
    /// Whether the process exists and is not a zombie waiting to be reaped.
    ///
    /// An app that exits closes its connection, but the service may read that end of file a moment
    /// later; a task handed over in between would run nowhere.
    static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // The state follows the parenthesised command name, which may itself contain spaces.
        guard let end = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: end)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }
}
