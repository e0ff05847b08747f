/*
Abstract:
The fault knobs: throttling, dropped connections, injected statuses, latency, corruption and Basic auth.
*/

import Foundation

/// Deliberate misbehaviour that lets demos and tests exercise a client's failure handling.
public struct Faults: Sendable, Equatable {
    /// The most body bytes per second sent in each response, or `nil` for full speed.
    public var throttleBytesPerSecond: Int64?
    /// Closes the connection after this many body bytes of any response, or `nil` to send whole bodies.
    public var dropAfterBytes: Int64?
    /// Fixed statuses answered for given paths.
    public var failures: [FailureRule]
    /// A delay before every response.
    public var latency: Duration
    /// Request paths whose files are served with bytes flipped (same length and validators).
    public var corruptedPaths: Set<String>
    /// The credentials required for paths under `/protected/`, or `nil` to serve them openly.
    public var credentials: BasicCredentials?

    /// No faults: the server behaves like a faithful CDN.
    public static let none = Faults()

    /// Creates fault knobs; every knob is off by default.
    public init(
        throttleBytesPerSecond: Int64? = nil,
        dropAfterBytes: Int64? = nil,
        failures: [FailureRule] = [],
        latency: Duration = .zero,
        corruptedPaths: Set<String> = [],
        credentials: BasicCredentials? = nil
    ) {
        self.throttleBytesPerSecond = throttleBytesPerSecond
        self.dropAfterBytes = dropAfterBytes
        self.failures = failures
        self.latency = latency
        self.corruptedPaths = corruptedPaths
        self.credentials = credentials
    }
}

/// A path that answers a fixed status, a number of times or always.
public struct FailureRule: Sendable, Equatable {
    /// The request path, for example `/sessions/wwdc23-10108.mp4`.
    public var path: String
    /// The status to answer, 400 through 599.
    public var status: Int
    /// How many requests fail before the path is served normally, or `nil` to fail every time.
    public var count: Int?

    /// Creates a rule.
    public init(path: String, status: Int, count: Int? = nil) {
        self.path = path
        self.status = status
        self.count = count
    }

    /// Parses the `--fail` form `PATH=STATUS[xCOUNT]`, for example `/manifest.json=503x2`.
    /// - Throws: ``AssetServerError/invalidOption(flag:value:expected:)`` naming the text.
    public init(parsing text: String) throws {
        let expected = "PATH=STATUS[xCOUNT] with an absolute path, a status from 400 to 599 and a positive count, "
            + "for example /manifest.json=503x2"
        let invalid = AssetServerError.invalidOption(flag: "--fail", value: text, expected: expected)
        guard let equals = text.lastIndex(of: "=") else { throw invalid }
        let path = String(text[..<equals])
        let parts = text[text.index(after: equals)...].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard path.hasPrefix("/"), parts.count <= 2,
              let status = Int(parts[0]), (400...599).contains(status) else { throw invalid }
        var count: Int?
        if parts.count == 2 {
            guard let value = Int(parts[1]), value > 0 else { throw invalid }
            count = value
        }
        self.init(path: path, status: status, count: count)
    }
}

/// A user name and password for HTTP Basic authentication.
public struct BasicCredentials: Sendable, Equatable {
    /// The user name; it cannot contain a colon.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// Parses the `--auth` form `USER:PASSWORD`; the password may itself contain colons.
    /// - Throws: ``AssetServerError/invalidOption(flag:value:expected:)`` when there is no colon or no user.
    public init(parsing text: String) throws {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw AssetServerError.invalidOption(
                flag: "--auth", value: text, expected: "USER:PASSWORD with a non-empty user, for example demo:secret")
        }
        self.init(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
    }

    /// Whether an `Authorization` header value carries these credentials with the Basic scheme.
    func accepts(authorization: String?) -> Bool {
        guard let authorization else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)) else { return false }
        return Array(decoded) == Array("\(user):\(password)".utf8)
    }
}
