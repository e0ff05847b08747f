/*
Abstract:
The task test app's command line: the requests to submit and what to do after, declared once for parsing and help.
*/

import ArgumentParsing

/// What one launch of `task-test-app` is asked to do, in the order the help lists it.
struct TaskTestOptions: ParsableArguments {
    static let configuration = CommandConfiguration(
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
            """)

    @Option("--submit", valueName: "SPEC", help: """
        Submit refresh:SECONDS or cleanup:SECONDS[:power][:network], SECONDS from now on the device clock, or now.
        """)
    var submit: [String]
    @Option("--submit-other", valueName: "ID", help: "Submit a refresh request for ID, which the app does not register.")
    var submitOther: [String]
    @Option("--continue", valueName: "NAME:TOTAL:STOP[:fail]", help: """
        Register EXPORT.NAME and submit a continued-processing request for it; its task advances one unit \
        every 100 ms up to STOP of TOTAL units, completes at TOTAL, and completes unsuccessfully when expired.
        """)
    var continued: [String]
    @Flag("--cancel-all", help: """
        Cancel every pending request of the app, then wait for the service's answer to a later request, so \
        the cancel has left the app.
        """)
    var cancelAll: Bool
    @Flag("--exit", help: "Exit once done, instead of staying alive.")
    var exit: Bool
}
