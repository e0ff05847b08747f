/*
Abstract:
What the demo prints between steps, and the pauses of --step.
*/

import Foundation

/// Prints each step's heading and, with `--step`, its explanation, waiting for Return on a terminal.
struct Narrator {
    let explains: Bool
    let isInteractive: Bool

    func step(_ number: Int, _ title: String, _ explanation: String) {
        say("\n== \(number). \(title)")
        guard explains else { return }
        say(explanation)
        if isInteractive {
            say("Press Return to continue, Ctrl-C to stop.", terminator: " ")
            _ = readLine()
        }
    }

    func note(_ text: String) {
        say(text)
    }
}

/// Prints straight to the descriptor, unbuffered, so the demo's lines interleave in order with its
/// children's output (stdout to a pipe would otherwise hold them back until the end).
func say(_ text: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((text + terminator).utf8))
}
