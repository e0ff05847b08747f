/*
Abstract:
The probe's command line, declared once for its parsing and its help.
*/

import ArgumentParsing

/// What one run of `exclusive-control-probe` is asked to do.
struct ProbeOptions: ParsableArguments {
    static let hold = Argument("HOLD_MS", help: "How long to hold exclusive control, in milliseconds.")
    static let crash = Flag("--crash", help: "Die holding exclusive control (SIGKILL) instead of returning it.")

    static let signature = CommandSignature(
        name: "exclusive-control-probe",
        abstract: """
            Waits for BADownloadManager's exclusive control, prints "enter NS", holds it for HOLD_MS, prints
            "exit NS" and returns it. NS is CLOCK_MONOTONIC in nanoseconds, comparable across the processes
            of one machine. "waiting NS" comes first, once it has asked for control.
            """,
        discussion: "Exit codes: 0 after returning control, 1 when it was refused, 64 for bad arguments.",
        // Static declarations share their names with the values they fill; `Self.` picks the declaration.
        arguments: [Self.hold, Self.crash])

    /// How long to hold exclusive control, in milliseconds.
    var hold: UInt32
    /// Whether to die holding it.
    var crash: Bool

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        let text = try arguments.positional(Self.hold)
        guard let hold = UInt32(text) else {
            throw UsageError("HOLD_MS is a whole number of milliseconds, not \(text.debugDescription).")
        }
        self.hold = hold
        crash = arguments.flag(Self.crash)
    }
}
