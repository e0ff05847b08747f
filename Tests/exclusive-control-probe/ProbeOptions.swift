/*
Abstract:
The probe's command line, declared once for its parsing and its help.
*/

import ArgumentParsing

/// What one run of `exclusive-control-probe` is asked to do.
struct ProbeOptions: ParsableArguments {
    static let configuration = CommandConfiguration(
        name: "exclusive-control-probe",
        abstract: """
            Waits for BADownloadManager's exclusive control, prints "enter NS", holds it for HOLD_MS (or until
            SIGUSR1), prints "exit NS" and returns it. NS is CLOCK_MONOTONIC in nanoseconds, comparable across
            the processes of one machine. "waiting NS" comes first, once it has asked for control.
            """,
        discussion: "Exit codes: 0 after returning control, 1 when it was refused, 64 for bad arguments.",
        usage: "(HOLD_MS | --until-sigusr1) [--crash]")

    /// How long to hold exclusive control.
    enum Hold: Equatable {
        case milliseconds(UInt32)
        /// Until the test sends SIGUSR1: the test decides from what it has seen, not from a duration.
        case untilSignal
    }

    @Argument("HOLD_MS", help: "How long to hold exclusive control, in milliseconds.")
    var holdMilliseconds: String?
    @Flag("--until-sigusr1", help: "Hold exclusive control until SIGUSR1 arrives, instead of for HOLD_MS.")
    var untilSignal: Bool
    /// Whether to die holding it.
    @Flag("--crash", help: "Die holding exclusive control (SIGKILL) instead of returning it.")
    var crash: Bool
    /// How long to hold exclusive control.
    var hold = Hold.untilSignal

    mutating func validate() throws(UsageError) {
        switch (holdMilliseconds, untilSignal) {
        case (nil, true):
            hold = .untilSignal
        case let (text?, false):
            guard let milliseconds = UInt32(text) else {
                throw UsageError("HOLD_MS is a whole number of milliseconds, not \(text.debugDescription).")
            }
            hold = .milliseconds(milliseconds)
        case (_?, true):
            throw UsageError("HOLD_MS and --until-sigusr1 do not go together; choose one.")
        case (nil, false):
            throw UsageError("exclusive-control-probe needs HOLD_MS or --until-sigusr1.")
        }
    }
}
