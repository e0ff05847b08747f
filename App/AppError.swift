/*
Abstract:
The errors the app reports: each says what was wrong and what to do next.
*/

import Foundation

/// An error of the app's own: a bad command line, or a manifest the server would not give.
enum AppError: LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// The command line is not one the app understands.
    case usage(String)
    /// The manifest could not be downloaded.
    case manifestUnavailable(url: String, reason: String)
    /// The local manifest has no session with this identifier.
    case unknownSession(String)

    var description: String {
        switch self {
        case let .usage(problem):
            "\(problem) Run wwdc-sessions --help for the usage."
        case let .manifestUnavailable(url, reason):
            "Could not download the manifest from \(url): \(reason). Start the asset server "
                + "(swift run asset-server --port \(URL(string: url)?.port ?? 80)) or pass --manifest-url."
        case let .unknownSession(identifier):
            "The manifest has no session \(identifier.debugDescription). wwdc-sessions list shows the sessions."
        }
    }
}

extension AppError {
    /// The ``description``, which `localizedDescription` returns.
    var errorDescription: String? { description }
}
