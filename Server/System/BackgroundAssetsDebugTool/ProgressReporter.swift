/*
Abstract:
Shows a download's progress: a bar redrawn in place on a terminal, a line a second otherwise.
*/

import Foundation

/// Prints progress to standard error, never to standard output.
struct ProgressReporter {
    let console: Console
    let identifier: String
    private var lastLine = ContinuousClock.now - .seconds(10)
    private var drewBar = false
    private var started = ContinuousClock.now
    private var startBytes: Int64?

    init(console: Console, identifier: String) {
        self.console = console
        self.identifier = identifier
    }

    /// Reports the bytes written so far.
    /// - Parameters:
    ///   - written: The bytes on disk.
    ///   - expected: The file's size, or a value of 0 or less when unknown.
    mutating func update(written: Int64, expected: Int64) {
        let now = ContinuousClock.now
        if startBytes == nil {
            startBytes = written
            started = now
        }
        let elapsed = now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0.2 ? Double(written - (startBytes ?? 0)) / seconds : 0
        if console.errorIsTerminal {
            guard now - lastLine >= .milliseconds(100) || (expected > 0 && written >= expected) else { return }
            lastLine = now
            drewBar = true
            console.errorFragment("\r" + Self.bar(written: written, expected: expected, rate: rate) + "\u{1B}[K")
        } else {
            guard now - lastLine >= .seconds(1) else { return }
            lastLine = now
            let percent = expected > 0 ? " (\(written * 100 / expected)%)" : ""
            console.error("progress \(identifier): \(written)/\(expected > 0 ? String(expected) : "?") bytes\(percent), "
                + "\(Self.megabytes(Int64(rate))) MiB/s")
        }
    }

    /// Prints a line about the download (waiting, resuming), ending a bar first so it is not overwritten.
    mutating func note(_ line: String) {
        finishLine()
        console.error(line)
    }

    /// Ends the bar's line, so whatever is printed next starts on a fresh one.
    mutating func finishLine() {
        if drewBar { console.errorFragment("\n") }
        drewBar = false
    }

    private static func bar(written: Int64, expected: Int64, rate: Double) -> String {
        let width = 30
        let speed = "\(megabytes(Int64(rate))) MiB/s"
        guard expected > 0 else { return "\(megabytes(written)) MiB  \(speed)" }
        let fraction = min(1, Double(written) / Double(expected))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "[\(bar)] \(Int(fraction * 100))%  \(megabytes(written))/\(megabytes(expected)) MiB  \(speed)"
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
