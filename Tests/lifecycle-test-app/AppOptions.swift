/*
Abstract:
The test app's command line: whether to set a delegate, how many finished downloads to wait for, for how long.
*/

import Foundation

/// What `lifecycle-test-app` is asked to do.
///
/// ```
/// lifecycle-test-app [--delegate] [--finished N] [--timeout SECONDS]
///                    [--credential USER:PASSWORD] [--foreground URL --foreground-size BYTES]
/// ```
/// Exit codes: 0 when the app became launchable and saw the downloads it waited for, 1 when the
/// launch gate failed or the wait timed out, 64 for a usage mistake.
struct AppOptions: Sendable {
    /// Whether to set a `BADownloadManager` delegate after the launch gate.
    var setsDelegate = false
    /// How many finished downloads the delegate waits for before the app exits.
    var finishedDownloads = 0
    /// How long to wait for them, in seconds.
    var timeout: Double = 30
    /// The user and password the delegate answers challenges with, in the async form.
    var credential: (user: String, password: String)?
    /// A download the app starts in the foreground once its delegate is connected.
    var foregroundURL: URL?
    /// The size of ``foregroundURL``'s file.
    var foregroundSize = 0

    /// Parses the arguments after the program name.
    /// - Throws: A message naming the argument at fault.
    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--delegate": setsDelegate = true
            case "--finished":
                guard let value = remaining.popFirst().flatMap(Int.init), value >= 0 else {
                    throw UsageError("--finished needs a count of 0 or more.")
                }
                finishedDownloads = value
                setsDelegate = setsDelegate || value > 0
            case "--timeout":
                guard let value = remaining.popFirst().flatMap(Double.init), value > 0 else {
                    throw UsageError("--timeout needs a positive number of seconds.")
                }
                timeout = value
            case "--credential":
                guard let value = remaining.popFirst(), let colon = value.firstIndex(of: ":") else {
                    throw UsageError("--credential needs USER:PASSWORD.")
                }
                credential = (String(value[..<colon]), String(value[value.index(after: colon)...]))
            case "--foreground":
                guard let value = remaining.popFirst().flatMap(URL.init(string:)), value.scheme != nil else {
                    throw UsageError("--foreground needs an absolute URL.")
                }
                foregroundURL = value
                setsDelegate = true
            case "--foreground-size":
                guard let value = remaining.popFirst().flatMap(Int.init), value >= 0 else {
                    throw UsageError("--foreground-size needs a size in bytes.")
                }
                foregroundSize = value
            default: throw UsageError("Unknown argument '\(argument)'. Usage: lifecycle-test-app [--delegate] "
                + "[--finished N] [--timeout SECONDS] [--credential USER:PASSWORD] "
                + "[--foreground URL --foreground-size BYTES]")
            }
        }
    }
}

/// A mistake on the command line, described in a sentence.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
