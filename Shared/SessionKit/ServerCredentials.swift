/*
Abstract:
The user name and password for the asset server's protected sessions, kept in the app group.
*/

import Foundation

/// The credentials that answer the asset server's authentication challenge for protected sessions.
///
/// The asset server asks for HTTP Basic authentication on every path under `/protected/` when it
/// runs with `--auth USER:PASSWORD`. Whoever sets up the device stores the same pair in the app
/// group, at ``SharedSettings/credentialsURL``:
///
/// ```json
/// { "user": "wwdc", "password": "sessions", "host": "127.0.0.1" }
/// ```
///
/// `host` is optional; when it is present the credentials are only ever sent to that host.
public struct ServerCredentials: Codable, Sendable, Equatable {
    /// The path prefix under which the asset server requires authentication.
    public static let protectedPathPrefix = "/protected/"

    /// The user name.
    public var user: String
    /// The password.
    public var password: String
    /// The only host the credentials are sent to, or `nil` for the host of any protected session.
    public var host: String?

    /// Creates credentials.
    /// - Parameters:
    ///   - user: The user name; it may not contain `:`, which Basic authentication uses as a separator.
    ///   - password: The password.
    ///   - host: The only host to send them to, or `nil` for any.
    public init(user: String, password: String, host: String? = nil) {
        self.user = user
        self.password = password
        self.host = host
    }

    /// Loads and checks a credentials file.
    /// - Parameter url: The file, usually ``SharedSettings/credentialsURL``.
    /// - Throws: ``SessionKitError/fileUnreadable(path:reason:)`` when it can't be read, or
    ///   ``SessionKitError/invalidCredentials(path:reason:)`` when it is not usable.
    public static func load(from url: URL) throws -> ServerCredentials {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SessionKitError.fileUnreadable(path: url.path, reason: error.localizedDescription)
        }
        let credentials: ServerCredentials
        do {
            credentials = try JSONDecoder().decode(ServerCredentials.self, from: data)
        } catch {
            var reason = (error as? DecodingError)?.summary ?? error.localizedDescription
            // The description adds its own full stop.
            if reason.hasSuffix(".") { reason.removeLast() }
            throw SessionKitError.invalidCredentials(path: url.path, reason: reason)
        }
        if let problem = credentials.problem {
            throw SessionKitError.invalidCredentials(path: url.path, reason: problem)
        }
        return credentials
    }

    /// Saves the credentials atomically, readable by their owner only.
    /// - Parameter url: Where to save them, usually ``SharedSettings/credentialsURL``.
    /// - Throws: ``SessionKitError/invalidCredentials(path:reason:)`` for unusable credentials, or
    ///   ``SessionKitError/fileUnwritable(path:reason:)``.
    public func save(to url: URL) throws {
        if let problem { throw SessionKitError.invalidCredentials(path: url.path, reason: problem) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(encoder.encode(self), to: url)
        guard chmod(url.path, 0o600) == 0 else {
            throw SessionKitError.fileUnwritable(path: url.path, reason: errnoText())
        }
    }

    /// Whether these credentials answer a challenge met while downloading a session's video.
    ///
    /// Only a challenge from the session's own server, for a protected path, on the credentials'
    /// host (when they name one) gets them: a password is never offered to anyone else.
    /// - Parameters:
    ///   - sessionURL: The URL of the video being downloaded.
    ///   - challengeHost: The host of the challenge's protection space.
    /// - Returns: `true` when the credentials should be sent.
    public func answer(challengeFrom challengeHost: String, downloading sessionURL: URL) -> Bool {
        guard let sessionHost = sessionURL.host?.lowercased(),
              sessionURL.standardized.path.hasPrefix(Self.protectedPathPrefix),
              challengeHost.lowercased() == sessionHost
        else { return false }
        return host.map { $0.lowercased() == sessionHost } ?? true
    }

    /// Why the credentials can't be used, or `nil` when they can.
    private var problem: String? {
        if user.isEmpty { return "the user name is empty" }
        if user.contains(":") { return "the user name contains ':', which Basic authentication cannot carry" }
        if (user + password).unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the user name or password contains a control character"
        }
        if let host, host.isEmpty { return "the host is empty; leave it out to allow any host" }
        return nil
    }
}
