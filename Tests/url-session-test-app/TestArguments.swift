/*
Abstract:
The test app's command line, declared once for its parsing and its --help.
*/

import ArgumentParsing
import Foundation

/// What one launch of `url-session-test-app` is asked to do.
struct TestArguments: ParsableArguments, Sendable {
    static let session = Option(
        "--session", valueName: "ID", help: "The session's identifier.", default: "com.example.lifecycle-test.downloads")
    static let noLaunchEvents = Flag("--no-launch-events", help: "Set sessionSendsLaunchEvents to false.")
    static let discretionary = Flag("--discretionary", help: "Set isDiscretionary.")
    static let sharedContainer = Flag("--shared-container", help: "Set sharedContainerIdentifier to the app group.")
    static let download = Option("--download", valueName: "URL", help: "Make a download task for URL and resume it.", repeatable: true) {
        text throws(UsageError) in
        guard let url = URL(string: text), url.scheme != nil else { throw UsageError("--download takes a URL, not \(text.debugDescription).") }
        return url
    }
    static let upload = Option(
        "--upload", valueName: "FILE=URL", help: "Make an upload task that PUTs FILE to URL, and resume it.", repeatable: true
    ) { text throws(UsageError) in
        guard let equals = text.firstIndex(of: "="), let url = URL(string: String(text[text.index(after: equals)...])),
              url.scheme != nil, text[..<equals].hasPrefix("/") else {
            throw UsageError("--upload takes an absolute FILE=URL, not \(text.debugDescription).")
        }
        return (file: URL(fileURLWithPath: String(text[..<equals])), url: url)
    }
    static let cancelResumeAfter = Option.number(
        "--cancel-resume-after", valueName: "BYTES", in: 1...Int64.max, expected: "a number of bytes above 0", help: """
            Cancel each task of --download with resume data once it has BYTES, and continue from the data with \
            downloadTask(withResumeData:).
            """)
    static let dataTask = Option("--data-task", valueName: "URL", help: "Make a data task, which a background session refuses.") {
        text throws(UsageError) in
        guard let url = URL(string: text), url.scheme != nil else { throw UsageError("--data-task takes a URL, not \(text.debugDescription).") }
        return url
    }
    static let list = Flag("--list", help: "Record the tasks getAllTasks gives.")
    static let notify = Option("--notify", valueName: "TITLE", help: "Ask to notify, and post a notification titled TITLE.")
    static let categories = Flag("--categories", help: """
        Register the LEVELS category (actions PLAY, and REPLY with a text field; custom dismiss) and post --notify in it.
        """)
    static let badge = Option.number(
        "--badge", valueName: "N", in: Int.min...Int.max, expected: "a whole number", help: "Set the app icon's badge count to N.")
    static let wait = Flag("--wait", help: "Exit once every task it knows of has completed; otherwise stay until killed.")

    static let signature = CommandSignature(
        name: "url-session-test-app",
        abstract: "Makes a background session, downloads and uploads what it is told, and records every delegate call.",
        discussion: """
            Launched in the background for a session's events, it names its app delegate, makes the session
            again in handleEventsForBackgroundURLSession, and calls the handler from urlSessionDidFinishEvents.
            Every call is a line of url-session-test-app.jsonl in the app group container.
            """,
        // Static declarations share their names with the values they fill; `Self.` picks the declaration.
        arguments: [Self.session, Self.noLaunchEvents, Self.discretionary, Self.sharedContainer, Self.download,
                    Self.upload, Self.cancelResumeAfter, Self.dataTask, Self.list, Self.notify, Self.categories, Self.badge, Self.wait])

    var session: String
    var launchEvents: Bool
    var discretionary: Bool
    var sharedContainer: Bool
    var downloads: [URL]
    var uploads: [(file: URL, url: URL)]
    var cancelResumeAfter: Int64?
    var dataTask: URL?
    var list: Bool
    var notification: String?
    var badge: Int?
    var categories: Bool
    var wait: Bool

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        session = try arguments.value(Self.session)
        launchEvents = !arguments.flag(Self.noLaunchEvents)
        discretionary = arguments.flag(Self.discretionary)
        sharedContainer = arguments.flag(Self.sharedContainer)
        downloads = try arguments.options(Self.download)
        uploads = try arguments.options(Self.upload)
        cancelResumeAfter = try arguments.option(Self.cancelResumeAfter)
        dataTask = try arguments.option(Self.dataTask)
        list = arguments.flag(Self.list)
        notification = try arguments.option(Self.notify)
        badge = try arguments.option(Self.badge)
        categories = arguments.flag(Self.categories)
        wait = arguments.flag(Self.wait)
    }
}
