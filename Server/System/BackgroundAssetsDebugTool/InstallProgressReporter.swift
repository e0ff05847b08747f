/*
Abstract:
Shows an install's progress: a bar redrawn in place on a terminal, a line per phase or per 10% otherwise.
*/

import BackgroundAssetsIPC
import Foundation

/// Prints an install's progress to standard error, as the home screen's icon would show it.
struct InstallProgressReporter {
    let console: Console
    let bundleIdentifier: String
    private var lastPhase: InstallProgress.Phase?
    private var lastTenth = -1
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
    /// phase or a new tenth of the bytes is, so a log stays short however often the service reports.
    mutating func plainLine(for progress: InstallProgress) -> String? {
        let tenth = Int((progress.fractionCompleted * 10).rounded(.down))
        defer {
            lastPhase = progress.phase
            // The total can shrink once the real essential sizes replace the allowance, so the tenth can go down.
            lastTenth = tenth
        }
        guard progress.phase != lastPhase || tenth > lastTenth else { return nil }
        return "\(bundleIdentifier): \(Self.describe(progress.phase)), \(Self.details(progress))"
    }

    /// The bar for a terminal:
    /// `[#########.....................] 30%  downloading essential assets  essential 2/5 finished  3.0/10.0 MiB`.
    static func bar(_ progress: InstallProgress, width: Int = 30) -> String {
        let fraction = progress.fractionCompleted
        let filled = min(width, Int((fraction * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        var parts = ["[\(bar)] \(Int((fraction * 100).rounded(.down)))%", describe(progress.phase)]
        if progress.essentialTotal > 0 { parts.append(essentialCount(progress)) }
        // A finished install may report no bytes at all; "0.0/0.0 MiB" would only confuse.
        if progress.totalBytes > 0 {
            parts.append("\(megabytes(progress.completedBytes))/\(megabytes(progress.totalBytes)) MiB")
        }
        return parts.joined(separator: "  ")
    }

    /// `30% (3.0 of 10.0 MiB), 2 of 5 essential downloads finished, 1 failed`.
    static func details(_ progress: InstallProgress) -> String {
        var text = "\(Int((progress.fractionCompleted * 100).rounded(.down)))%"
        if progress.totalBytes > 0 {
            text += " (\(megabytes(progress.completedBytes)) of \(megabytes(progress.totalBytes)) MiB)"
        }
        if progress.essentialTotal > 0 {
            text += ", \(progress.essentialFinished) of \(progress.essentialTotal) essential downloads finished"
            if progress.essentialFailed > 0 { text += ", \(progress.essentialFailed) failed" }
        }
        return text
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

    private static func essentialCount(_ progress: InstallProgress) -> String {
        let finished = "essential \(progress.essentialFinished)/\(progress.essentialTotal) finished"
        return progress.essentialFailed > 0 ? finished + ", \(progress.essentialFailed) failed" : finished
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
