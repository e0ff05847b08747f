/*
Abstract:
The display for a terminal: a table of the sessions redrawn in place, with the latest events beneath it.
*/

import BackgroundAssets
import Foundation
import OSLog
import Synchronization

/// Draws the sessions as a live table on the terminal.
///
/// Log lines would tear the table apart, so while it is shown the log goes to the device log
/// (`system/log` under the device root) and the table's footer shows the latest events instead.
final class LiveTableDisplay: SessionDisplay {
    private struct Screen {
        /// Whether the install's progress line is on screen, without its line feed.
        var showsInstallProgress = false
        /// The lines the last frame drew, which the next frame draws over.
        var linesDrawn = 0
        /// The latest events worth reading, newest last.
        var recentEvents: [String] = []
        /// The statuses the last frame showed, which the final frame shows again.
        var statuses: [SessionStatus] = []
        /// Whether the install ended and the table owns the screen.
        var showsTable = false
        /// Whether the final frame was drawn; nothing is drawn after it.
        var isFinished = false
    }

    private static let recentEventCount = 3
    private let screen = Mutex(Screen())
    /// The terminal's standard error, kept for the closing message once the log goes elsewhere.
    private let terminalError: Int32
    /// Whether the log already went to the device log when the display was created.
    private let logRedirected: Bool

    init() {
        terminalError = dup(STDERR_FILENO)
        // The log goes to the device log from the start, unless the device has no log yet: the
        // system service creates it when it first starts, and then the table's first frame moves it.
        logRedirected = Logger.redirectStandardErrorToDeviceLog()
        Terminal.write(Terminal.hideCursor)
    }

    func showInstallProgress(_ progress: BAInstallProgress) {
        let bar = DisplayFormat.bar(progress.fractionCompleted, width: 30)
        var line = "Installing \(Bundle.appName)  \(bar) \(DisplayFormat.percent(progress.fractionCompleted))"
        // The essential downloads are known once the extension has returned them.
        if progress.essentialDownloadsTotal > 0 {
            line += "  \(progress.essentialDownloadsEnded) of \(progress.essentialDownloadsTotal) essential downloads"
        }
        screen.withLock { $0.showsInstallProgress = true }
        Terminal.write("\r" + Terminal.clearLine + String(line.prefix(Terminal.columns - 1)))
    }

    func installEnded(_ outcome: String) {
        Terminal.write("\r" + Terminal.clearLine + outcome + "\n")
        if !logRedirected { Logger.redirectStandardErrorToDeviceLog() }
        screen.withLock { screen in
            screen.showsInstallProgress = false
            screen.showsTable = true
        }
    }

    func show(_ event: SessionEvent) {
        switch event {
        case .downloadProgressed, .downloadBegan: return
        default: break
        }
        screen.withLock { screen in
            screen.recentEvents.append(event.line)
            screen.recentEvents.removeFirst(max(0, screen.recentEvents.count - Self.recentEventCount))
        }
    }

    var refreshInterval: Duration? { .milliseconds(200) }

    func refresh(_ statuses: [SessionStatus]) {
        draw(statuses, isFinal: false)
    }

    func finish(message: String, isError: Bool) {
        // Interrupted while the install's progress line was showing, the message goes below it.
        if screen.withLock({ $0.showsInstallProgress }) { Terminal.write("\n") }
        draw(nil, isFinal: true)
        Terminal.write(Terminal.showCursor)
        Terminal.write(message + "\n", to: isError ? terminalError : STDOUT_FILENO)
    }

    /// Draws one frame over the previous one; after the final frame nothing more is drawn.
    /// - Parameters:
    ///   - newStatuses: The statuses to show, or `nil` for the last ones shown.
    ///   - isFinal: Whether this is the last frame.
    private func draw(_ newStatuses: [SessionStatus]?, isFinal: Bool) {
        screen.withLock { screen in
            guard screen.showsTable, !screen.isFinished else { return }
            if let newStatuses { screen.statuses = newStatuses }
            let statuses = screen.statuses
            let width = Terminal.columns
            var lines = SessionTable(width: width, usesColor: true).lines(for: statuses)
            lines.append("")
            lines.append(String(summary(of: statuses).prefix(width - 1)))
            for event in screen.recentEvents {
                lines.append(Terminal.dim + String(event.prefix(width - 1)) + Terminal.reset)
            }
            if isFinal {
                screen.isFinished = true
            } else {
                lines.append(
                    Terminal.dim + "Ctrl-C quits. The log goes to the device log, system/log." + Terminal.reset)
            }
            // Each line is cleared before it is written, and the rest of the old frame after the last one.
            var frame = Terminal.cursorUp(screen.linesDrawn)
            for line in lines { frame += Terminal.clearLine + line + "\n" }
            frame += Terminal.clearToEnd
            screen.linesDrawn = lines.count
            Terminal.write(frame)
        }
    }

    /// One line about the whole: how many sessions are on the device, and the total download rate.
    private func summary(of statuses: [SessionStatus]) -> String {
        let downloaded = statuses.filter { $0.phase == .downloaded }.count
        let active = statuses.filter { $0.phase == .downloading }
        let rate = active.compactMap(\.bytesPerSecond).reduce(0, +)
        var text = "\(downloaded) of \(statuses.count) sessions on the device"
        if !active.isEmpty { text += " · \(active.count) downloading · \(DisplayFormat.rate(rate))" }
        return text
    }
}
