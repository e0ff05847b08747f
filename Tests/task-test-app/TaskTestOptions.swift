/*
Abstract:
The task test app's command line: the requests to submit and what to do after, declared once for parsing and help.
*/

import ArgumentParsing

/// What one launch of `task-test-app` is asked to do, in the order the help lists it.
struct TaskTestOptions: ParsableArguments {
    static let submit = Option("--submit", valueName: "SPEC", help: """
        Submit refresh:SECONDS or cleanup:SECONDS[:power][:network], SECONDS from now on the device clock, or now.
        """, repeatable: true)
    static let submitOther = Option(
        "--submit-other", valueName: "ID", help: "Submit a refresh request for ID, which the app does not register.",
        repeatable: true)
    static let continued = Option("--continue", valueName: "NAME:TOTAL:STOP[:fail]", help: """
        Register EXPORT.NAME and submit a continued-processing request for it; its task advances one unit \
        every 100 ms up to STOP of TOTAL units, completes at TOTAL, and completes unsuccessfully when expired.
        """, repeatable: true)
    static let cancelAll = Flag("--cancel-all", help: """
        Cancel every pending request of the app, then wait for the service's answer to a later request, so \
        the cancel has left the app.
        """)
    static let exit = Flag("--exit", help: "Exit once done, instead of staying alive.")

    static let signature = CommandSignature(
        name: "task-test-app",
        abstract: """
            Registers REFRESH and CLEANUP as every launch must, does what its options say in the order listed
            below, then stays alive (a background launch ends when the service terminates it) unless given --exit.
            """,
        discussion: """
            What it does with a task comes from task-behaviour in the app group container: hang ignores
            expiration and never completes; otherwise the task completes after work=SECONDS, or at its
            expiration. resubmit runs CLEANUP as Apple's samples do, submitting its next request first;
            setup=SECONDS keeps the main thread busy that long after registering, then logs ready. Every event is a line in task-test-app.log in the container:
            EVENT IDENTIFIER PID background|foreground.
            """,
        // Static declarations share their names with the values they fill; `Self.` picks the declaration.
        arguments: [Self.submit, Self.submitOther, Self.continued, Self.cancelAll, Self.exit])

    var submit: [String]
    var submitOther: [String]
    var continued: [String]
    var cancelAll: Bool
    var exit: Bool

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        submit = try arguments.options(Self.submit)
        submitOther = try arguments.options(Self.submitOther)
        continued = try arguments.options(Self.continued)
        cancelAll = arguments.flag(Self.cancelAll)
        exit = arguments.flag(Self.exit)
    }
}
