/*
Abstract:
The display for logs and pipes: one line per event, on standard output.
*/

import BackgroundAssets
import Foundation
import OSLog
import SessionKit
import Synchronization

/// Prints one line per event, and a download's progress only at each quarter, so the output stays
/// readable in a log file or a test's captured output.
final class EventLineDisplay: SessionDisplay {
    private struct Progress {
        /// The last install progress printed, in tenths, and essential downloads ended.
        var install: (tenths: Int, ended: Int)?
        /// The last quarter printed for each session.
        var quarters: [Session.ID: Int] = [:]
        /// The lines promotions are worth.
        var promotions = PromotionLines()
    }

    private let printed = Mutex(Progress())
    /// The terminal's standard error, kept for the closing message when the log goes to the device log.
    private let terminalError: Int32?

    init() {
        // Where the log would reach the same reader as the events (a terminal, or one pipe or file
        // taking both, as `2>&1` makes it), the events already say what the log would, line by line
        // ("downloaded and verified" beside "Downloaded session"), so the log goes to the device log
        // only, as with the live table. Standard error of its own keeps the log for whoever reads it.
        guard isatty(STDERR_FILENO) == 1 || Self.standardErrorIsStandardOutput() else {
            terminalError = nil
            return
        }
        terminalError = dup(STDERR_FILENO)
        Logger.redirectStandardErrorToDeviceLog()
    }

    func showInstallProgress(_ progress: BAInstallProgress) {
        let tenths = Int((progress.fractionCompleted * 10).rounded(.down))
        let isNew = printed.withLock { printed in
            let current = (tenths: tenths, ended: progress.essentialDownloadsEnded)
            guard printed.install.map({ $0 != current }) ?? true else { return false }
            printed.install = current
            return true
        }
        guard isNew else { return }
        let percent = DisplayFormat.percent(progress.fractionCompleted).trimmingCharacters(in: .whitespaces)
        var line = "Installing: \(percent)"
        // The essential downloads are known once the extension has returned them.
        if progress.essentialDownloadsTotal > 0 {
            line += ", \(progress.essentialDownloadsEnded) of \(progress.essentialDownloadsTotal) essential downloads "
                + "ended"
        }
        Terminal.write(line + ".\n")
    }

    /// Whether standard error and standard output are one open file (the same pipe, file or device).
    private static func standardErrorIsStandardOutput() -> Bool {
        var output = stat()
        var error = stat()
        guard fstat(STDOUT_FILENO, &output) == 0, fstat(STDERR_FILENO, &error) == 0 else { return false }
        return output.st_dev == error.st_dev && output.st_ino == error.st_ino
    }

    func installEnded(_ outcome: String) {
        Terminal.write(outcome + "\n")
        // The system service creates the device log when it first starts, which may have been just now.
        if terminalError != nil { Logger.redirectStandardErrorToDeviceLog() }
    }

    func show(_ event: SessionEvent) {
        if case let .downloadProgressed(id, fraction) = event {
            // Only each quarter is worth a line; the last one is reported as downloaded.
            let quarter = Int((fraction * 4).rounded(.down))
            let isNew = printed.withLock { printed in
                guard quarter > 0, quarter < 4, printed.quarters[id, default: 0] < quarter else { return false }
                printed.quarters[id] = quarter
                return true
            }
            guard isNew else { return }
        }
        guard let line = printed.withLock({ $0.promotions.line(for: event) }) else { return }
        Terminal.write(line + "\n")
    }

    var refreshInterval: Duration? { nil }

    func refresh(_ statuses: [SessionStatus]) {}

    func finish(message: String, isError: Bool) {
        Terminal.write(message + "\n", to: isError ? terminalError ?? STDERR_FILENO : STDOUT_FILENO)
    }
}
