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
        print("\n== \(number). \(title)")
        guard explains else { return }
        print(explanation)
        if isInteractive {
            print("Press Return to continue, Ctrl-C to stop.", terminator: " ")
            _ = readLine()
        }
    }

    func note(_ text: String) {
        print(text)
    }
}
