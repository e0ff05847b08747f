/*
Abstract:
The test app's command line, declared once for its parsing and its --help.
*/

import ArgumentParsing
import Foundation

/// What one launch of `url-session-test-app` is asked to do.
struct TestArguments: ParsableArguments, Sendable {
    static let configuration = CommandConfiguration(
        name: "url-session-test-app",
        abstract: "Makes a background session, downloads and uploads what it is told, and records every delegate call.",
        discussion: """
            Launched in the background for a session's events, it names its app delegate, makes the session
            again in handleEventsForBackgroundURLSession, and calls the handler from urlSessionDidFinishEvents.
            Every call is a line of url-session-test-app.jsonl in the app group container.
            """)

    @Option("--session", valueName: "ID", help: "The session's identifier.")
    var session = "com.example.lifecycle-test.downloads"
    @Flag("--no-launch-events", help: "Set sessionSendsLaunchEvents to false.")
    var noLaunchEvents: Bool
    @Flag("--discretionary", help: "Set isDiscretionary.")
    var discretionary: Bool
    @Flag("--shared-container", help: "Set sharedContainerIdentifier to the app group.")
    var sharedContainer: Bool
    @Option("--download", valueName: "URL", help: "Make a download task for URL and resume it.", as: ArgumentConversion {
        text throws(UsageError) in
        guard let url = URL(string: text), url.scheme != nil else { throw UsageError("--download takes a URL, not \(text.debugDescription).") }
        return url
    })
    var downloads: [URL]
    @Option(
        "--upload", valueName: "FILE=URL", help: "Make an upload task that PUTs FILE to URL, and resume it.",
        as: ArgumentConversion { text throws(UsageError) -> (file: URL, url: URL) in
            guard let equals = text.firstIndex(of: "="), let url = URL(string: String(text[text.index(after: equals)...])),
                  url.scheme != nil, text[..<equals].hasPrefix("/") else {
                throw UsageError("--upload takes an absolute FILE=URL, not \(text.debugDescription).")
            }
            return (file: URL(fileURLWithPath: String(text[..<equals])), url: url)
        })
    var uploads: [(file: URL, url: URL)]
    @Option(
        "--cancel-resume-after", valueName: "BYTES", help: """
            Cancel each task of --download with resume data once it has BYTES, and continue from the data with \
            downloadTask(withResumeData:).
            """, as: .number(in: 1...Int64.max, expected: "a number of bytes above 0"))
    var cancelResumeAfter: Int64?
    @Option("--data-task", valueName: "URL", help: "Make a data task, which a background session refuses.", as: ArgumentConversion {
        text throws(UsageError) in
        guard let url = URL(string: text), url.scheme != nil else { throw UsageError("--data-task takes a URL, not \(text.debugDescription).") }
        return url
    })
    var dataTask: URL?
    @Flag("--list", help: "Record the tasks getAllTasks gives.")
    var list: Bool
    @Option("--notify", valueName: "TITLE", help: "Ask to notify, and post a notification titled TITLE.")
    var notification: String?
    @Flag("--categories", help: """
        Register the LEVELS category (actions PLAY, and REPLY with a text field; custom dismiss) and post --notify in it.
        """)
    var categories: Bool
    @Option(
        "--badge", valueName: "N", help: "Set the app icon's badge count to N.",
        as: .number(in: Int.min...Int.max, expected: "a whole number"))
    var badge: Int?
    @Flag("--wait", help: "Exit once every task it knows of has completed; otherwise stay until killed.")
    var wait: Bool

    /// Whether the session sends launch events.
    var launchEvents: Bool { !noLaunchEvents }
}
