/*
Abstract:
Shows an install's progress: a bar redrawn in place on a terminal, a line per phase or per 10% otherwise.
*/

import BackgroundAssetsIPC
import Foundation

/// Prints an install's progress to standard error, as the home screen's icon would show it.
///
/// The app's own download and the essential assets are counted apart (``InstallProgressParts``), so
/// no total moves between lines; the first line says what the app's part is.
struct InstallProgressReporter {
    let console: Console
    let bundleIdentifier: String
    private var lastPhase: InstallProgress.Phase?
    private var lastTenth = -1
    private var explainedApp = false
    private var drewBar = false
    private var lastDraw = ContinuousClock.now - .seconds(10)

    init(console: Console, bundleIdentifier: String) {
        self.console = console
        self.bundleIdentifier = bundleIdentifier
    }

    /// Shows one progress event.
    /// - Parameter progress: The install's progress as the service reported it.
    mutating func update(_ progress: InstallProgress) {
        if console.errorIsTerminal {
            // Ten frames a second are plenty; a new phase is drawn at once so none goes unseen.
            let now = ContinuousClock.now
            guard progress.phase != lastPhase || now - lastDraw >= .milliseconds(100) else { return }
            lastPhase = progress.phase
            lastDraw = now
            drewBar = true
            console.errorFragment("\r" + Self.bar(progress) + "\u{1B}[K")
        } else if let line = plainLine(for: progress) {
            console.error(line)
        }
    }

    /// Ends the bar's line, so whatever is printed next starts on a fresh one.
    mutating func finishLine() {
        if drewBar { console.errorFragment("\n") }
        drewBar = false
    }

    /// The line to print without a terminal, or `nil` when this event is not worth a line: only a new
    /// phase or a new tenth of the essential part is, so a log stays short however often the service reports.
    mutating func plainLine(for progress: InstallProgress) -> String? {
        let parts = InstallProgressParts(progress)
        let tenth = Int((parts.essentialFraction * 10).rounded(.down))
        defer {
            lastPhase = progress.phase
            // A download that restarts from zero moves the essential part back, so the tenth can go down.
            lastTenth = tenth
        }
        guard progress.phase != lastPhase || tenth > lastTenth else { return nil }
        defer { explainedApp = explainedApp || parts.app(explained: false) != nil }
        return "\(bundleIdentifier): \(Self.describe(progress.phase)); \(parts.text(explainingApp: !explainedApp))"
    }

    /// The bar for a terminal: `[###.......] 30%  downloading essential assets  app 96.0 MiB + essential
    /// assets 3.0 of 10.0 MiB, 2 of 5 finished`.
    static func bar(_ progress: InstallProgress, width: Int = 30) -> String {
        let fraction = progress.fractionCompleted
        let filled = min(width, Int((fraction * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        var parts = ["[\(bar)] \(Int((fraction * 100).rounded(.down)))%", describe(progress.phase)]
        // A finished install may report no bytes at all; "0 bytes" of nothing would only confuse.
        if progress.totalBytes > 0 || progress.essentialTotal > 0 {
            parts.append(InstallProgressParts(progress).text(explainingApp: false))
        }
        return parts.joined(separator: "  ")
    }

    /// What a phase means, in words.
    static func describe(_ phase: InstallProgress.Phase) -> String {
        switch phase {
        case .downloadingApp: "downloading the app"
        case .requestingContent: "asking the extension for its downloads"
        case .downloadingEssentialAssets: "downloading essential assets"
        case .complete: "complete"
        }
    }
}
