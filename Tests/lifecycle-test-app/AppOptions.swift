/*
Abstract:
The test app's command line: whether to set a delegate, how many finished downloads to wait for, for how long.
*/

import ArgumentParsing
import Foundation

/// What `lifecycle-test-app` is asked to do, declared once for its parsing and its help.
struct AppOptions: ParsableArguments, Sendable {
    static let delegate = Flag("--delegate", help: "Set a BADownloadManager delegate after the launch gate.")
    static let finished = Option<Int>.number(
        "--finished", valueName: "N", in: 0...Int.max, expected: "a count of 0 or more",
        help: "Wait for N finished downloads before exiting; above 0, a delegate is set.", default: 0)
    static let timeout = Option(
        "--timeout", valueName: "SECONDS", help: "How long to wait for them.", default: 30.0,
        defaultDescription: "30"
    ) { text throws(UsageError) in
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw UsageError("--timeout takes a positive number of seconds, not \(text.debugDescription).")
        }
        return seconds
    }
    static let credential = Option(
        "--credential", valueName: "USER:PASSWORD", help: "Answer challenges with this user and password, in the async form."
    ) { text throws(UsageError) -> (user: String, password: String) in
        guard let colon = text.firstIndex(of: ":") else { throw UsageError("--credential takes USER:PASSWORD, not \(text).") }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
    static let foreground = Option(
        "--foreground", valueName: "URL", help: "Start a download of URL in the foreground once the delegate is set."
    ) { text throws(UsageError) in
        guard let url = URL(string: text), url.scheme != nil else {
            throw UsageError("--foreground takes an absolute URL, not \(text.debugDescription).")
        }
        return url
    }
    static let foregroundSize = Option<Int>.number(
        "--foreground-size", valueName: "BYTES", in: 0...Int.max, expected: "a size in bytes",
        help: "The size of the file at the --foreground URL.", default: 0
    ).requiring(foreground)

    static let signature = CommandSignature(
        name: "lifecycle-test-app",
        abstract: "The app the lifecycle tests install: it waits at the launch gate, then may receive downloads.",
        discussion: """
            Exit codes: 0 when the app became launchable and saw the downloads it waited for, 1 when the
            launch gate failed or the wait timed out, 64 for a usage mistake.
            """,
        // Static declarations share their names with the values they fill; `Self.` picks the declaration.
        arguments: [Self.delegate, Self.finished, Self.timeout, Self.credential, Self.foreground, Self.foregroundSize])

    /// Whether to set a `BADownloadManager` delegate after the launch gate.
    var setsDelegate: Bool
    /// How many finished downloads the delegate waits for before the app exits.
    var finishedDownloads: Int
    /// How long to wait for them, in seconds.
    var timeout: Double
    /// The user and password the delegate answers challenges with, in the async form.
    var credential: (user: String, password: String)?
    /// A download the app starts in the foreground once its delegate is connected.
    var foregroundURL: URL?
    /// The size of ``foregroundURL``'s file.
    var foregroundSize: Int

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        finishedDownloads = try arguments.value(Self.finished)
        timeout = try arguments.value(Self.timeout)
        credential = try arguments.option(Self.credential)
        foregroundURL = try arguments.option(Self.foreground)
        foregroundSize = try arguments.value(Self.foregroundSize)
        setsDelegate = arguments.flag(Self.delegate) || finishedDownloads > 0 || foregroundURL != nil
    }
}
