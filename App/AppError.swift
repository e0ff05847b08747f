/*
Abstract:
The errors the app reports: each says what was wrong and what to do next.
*/

import Foundation

/// An error of the app's own: a manifest the server would not give, or a session it does not list.
enum AppError: LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// The manifest could not be downloaded.
    case manifestUnavailable(url: String, reason: String)
    /// The local manifest has no session with this identifier.
    case unknownSession(String)

    var description: String {
        switch self {
        case let .manifestUnavailable(url, reason):
            // The reason is often Foundation's own sentence, whose full stop would double this one's.
            "Could not download the manifest from \(url): \(reason.trimmingCharacters(in: ["."])). Start the asset server "
                + "(swift run asset-server --port \(URL(string: url)?.port ?? 80)) or pass --manifest-url."
        case let .unknownSession(identifier):
            "The manifest has no session \(identifier.debugDescription). \(AppOptions.command) list shows the sessions."
        }
    }
}

extension AppError {
    /// The ``description``, which `localizedDescription` returns.
    var errorDescription: String? { description }
}
