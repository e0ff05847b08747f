/*
Abstract:
An error as it travels over the wire: a domain, a code, and a message.
*/

/// An error sent from the service to a client, in a `failure` response or a `failed` event.
///
/// The domain says how the client rebuilds it: `BAErrorDomain` becomes a `BAError`,
/// `NSURLErrorDomain` a `URLError`, anything else an `NSError` with the same domain and code.
public struct WireFailure: Codable, Sendable, Hashable, Error, CustomStringConvertible {
    /// The domain of Background Assets errors, the value of Apple's `BAErrorDomain`.
    public static let backgroundAssetsDomain = "BAErrorDomain"
    /// The domain of URL loading errors, the value of Foundation's `NSURLErrorDomain`.
    public static let urlDomain = "NSURLErrorDomain"

    /// The error's domain.
    public var domain: String
    /// The error's code within its domain.
    public var code: Int
    /// A sentence saying what happened and what to do next.
    public var message: String

    /// Creates a failure.
    /// - Parameters:
    ///   - domain: The error's domain.
    ///   - code: The error's code within its domain.
    ///   - message: A sentence saying what happened and what to do next.
    public init(domain: String, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Creates a Background Assets failure.
    /// - Parameters:
    ///   - code: The raw value of a `BAError.Code`.
    ///   - message: A sentence saying what happened and what to do next.
    /// - Returns: A failure in ``backgroundAssetsDomain``.
    public static func backgroundAssets(code: Int, message: String) -> WireFailure {
        WireFailure(domain: backgroundAssetsDomain, code: code, message: message)
    }

    /// The domain, code, and message on one line.
    public var description: String { "\(domain) \(code): \(message)" }
}
