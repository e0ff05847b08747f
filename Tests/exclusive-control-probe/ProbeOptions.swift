/*
Abstract:
The probe's command line, declared once for its parsing and its help.
*/

import ArgumentParsing

/// What one run of `exclusive-control-probe` is asked to do.
struct ProbeOptions: ParsableArguments {
    static let hold = Argument("HOLD_MS", help: "How long to hold exclusive control, in milliseconds.").optional()
    static let untilSignal = Flag("--until-sigusr1", help: "Hold exclusive control until SIGUSR1 arrives, instead of for HOLD_MS.")
    static let crash = Flag("--crash", help: "Die holding exclusive control (SIGKILL) instead of returning it.")

    static let signature = CommandSignature(
        name: "exclusive-control-probe",
        abstract: """
            Waits for BADownloadManager's exclusive control, prints "enter NS", holds it for HOLD_MS (or until
            SIGUSR1), prints "exit NS" and returns it. NS is CLOCK_MONOTONIC in nanoseconds, comparable across
            the processes of one machine. "waiting NS" comes first, once it has asked for control.
            """,
        discussion: "Exit codes: 0 after returning control, 1 when it was refused, 64 for bad arguments.",
        usage: "(HOLD_MS | --until-sigusr1) [--crash]",
        // Static declarations share their names with the values they fill; `Self.` picks the declaration.
        arguments: [Self.hold, Self.untilSignal, Self.crash])

    /// How long to hold exclusive control.
    enum Hold: Equatable {
        case milliseconds(UInt32)
        /// Until the test sends SIGUSR1: the test decides from what it has seen, not from a duration.
        case untilSignal
    }

    /// How long to hold exclusive control.
    var hold: Hold
    /// Whether to die holding it.
    var crash: Bool

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        let text = arguments.positionals(Self.hold).first
        switch (text, arguments.flag(Self.untilSignal)) {
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
        crash = arguments.flag(Self.crash)
    }
}
