/*
Abstract:
An authentication challenge and its answer as they travel between the service and a delegate.
*/

/// The wire form of a `URLAuthenticationChallenge`: the protection space and the failures so far.
public struct ChallengeDescriptor: Codable, Sendable, Hashable {
    /// The server's host.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The URL scheme, `http` or `https`.
    public var `protocol`: String
    /// The realm from `WWW-Authenticate`, when the server named one.
    public var realm: String?
    /// The authentication method, one of Foundation's `NSURLAuthenticationMethod…` values.
    public var authenticationMethod: String
    /// How many answers to this download's challenges the server already refused.
    public var previousFailureCount: Int

    /// Creates a challenge.
    /// - Parameters:
    ///   - host: The server's host.
    ///   - port: The server's port.
    ///   - protocol: The URL scheme.
    ///   - realm: The realm, when there is one.
    ///   - authenticationMethod: The authentication method.
    ///   - previousFailureCount: How many answers the server already refused.
    public init(
        host: String, port: Int, protocol: String, realm: String?, authenticationMethod: String,
        previousFailureCount: Int
    ) {
        self.host = host
        self.port = port
        self.protocol = `protocol`
        self.realm = realm
        self.authenticationMethod = authenticationMethod
        self.previousFailureCount = previousFailureCount
    }
}

/// A delegate's answer to a challenge: what `URLSession.AuthChallengeDisposition` it chose, and a credential.
public struct ChallengeAnswer: Codable, Sendable, Hashable {
    /// The wire form of `URLSession.AuthChallengeDisposition`.
    public enum Disposition: String, Codable, Sendable, CaseIterable {
        /// Retry with the credential.
        case useCredential
        /// Do what would happen without a delegate: the download fails with the server's 401.
        case performDefaultHandling
        /// Cancel the download.
        case cancelAuthenticationChallenge
        /// Decline this protection space; treated like default handling.
        case rejectProtectionSpace
    }

    /// What the delegate chose.
    public var disposition: Disposition
    /// The user name of the credential, for `useCredential`.
    public var user: String?
    /// The password of the credential, for `useCredential`; it lives in memory only, never in the store.
    public var password: String?

    /// Creates an answer.
    /// - Parameters:
    ///   - disposition: What the delegate chose.
    ///   - user: The user name of the credential.
    ///   - password: The password of the credential.
    public init(disposition: Disposition, user: String? = nil, password: String? = nil) {
        self.disposition = disposition
        self.user = user
        self.password = password
    }
}
