/*
Abstract:
The test app's command line: whether to set a delegate, how many finished downloads to wait for, for how long.
*/

import ArgumentParsing
import Foundation

/// What `lifecycle-test-app` is asked to do, declared once for its parsing and its help.
struct AppOptions: ParsableArguments, Sendable {
    static let configuration = CommandConfiguration(
        name: "lifecycle-test-app",
        abstract: "The app the lifecycle tests install: it waits at the launch gate, then may receive downloads.",
        discussion: """
            Exit codes: 0 when the app became launchable and saw the downloads it waited for, 1 when the
            launch gate failed or the wait timed out, 64 for a usage mistake.
            """)

    @Flag("--delegate", help: "Set a BADownloadManager delegate after the launch gate.")
    var delegate: Bool
    /// How many finished downloads the delegate waits for before the app exits.
    @Option(
        "--finished", valueName: "N", help: "Wait for N finished downloads before exiting; above 0, a delegate is set.",
        as: .number(in: 0...Int.max, expected: "a count of 0 or more"))
    var finishedDownloads = 0
    /// How long to wait for them, in seconds.
    @Option(
        "--timeout", valueName: "SECONDS", help: "How long to wait for them.", defaultDescription: "30",
        as: ArgumentConversion { text throws(UsageError) in
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError("--timeout takes a positive number of seconds, not \(text.debugDescription).")
            }
            return seconds
        })
    var timeout = 30.0
    /// The user and password the delegate answers challenges with, in the async form.
    @Option(
        "--credential", valueName: "USER:PASSWORD", help: "Answer challenges with this user and password, in the async form.",
        as: ArgumentConversion { text throws(UsageError) -> (user: String, password: String) in
            guard let colon = text.firstIndex(of: ":") else { throw UsageError("--credential takes USER:PASSWORD, not \(text).") }
            return (String(text[..<colon]), String(text[text.index(after: colon)...]))
        })
    var credential: (user: String, password: String)?
    /// A download the app starts in the foreground once its delegate is connected.
    @Option(
        "--foreground", valueName: "URL", help: "Start a download of URL in the foreground once the delegate is set.",
        as: ArgumentConversion { text throws(UsageError) in
            guard let url = URL(string: text), url.scheme != nil else {
                throw UsageError("--foreground takes an absolute URL, not \(text.debugDescription).")
            }
            return url
        })
    var foregroundURL: URL?
    /// The size of ``foregroundURL``'s file.
    @Option(
        "--foreground-size", valueName: "BYTES", help: "The size of the file at the --foreground URL.",
        traits: [.requiring("--foreground")], as: .number(in: 0...Int.max, expected: "a size in bytes"))
    var foregroundSize = 0

    /// Whether to set a `BADownloadManager` delegate after the launch gate.
    var setsDelegate: Bool { delegate || finishedDownloads > 0 || foregroundURL != nil }
}
