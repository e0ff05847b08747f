/*
Abstract:
The parts of an http or https URL a request is made of, checked once, so nothing from a server reaches a socket or a header unchecked.
*/

import BackgroundAssetsIPC
import Foundation

/// Where one request goes and what its head names: the connection's host and port, the `Host`
/// field and the request target.
///
/// Every URL the engine fetches becomes one of these first: the download's own URL, which the
/// service checked when it was scheduled (a row stored by an older service may not have been), and
/// every `Location` a server answers with, which nobody checked. A URL without a host, with another
/// scheme, with a port outside 1...65535, or with anything but visible ASCII where a header field
/// would carry it, is refused with ``TransferError/Kind/unsupportedURL``: no retry can fetch it.
struct RequestTarget: Sendable, Equatable {
    /// Whether the connection speaks TLS (`https`).
    var isSecure: Bool
    /// The host to resolve and to verify the certificate against: a name or an IP address, without brackets.
    var host: String
    /// The TCP port.
    var port: Int
    /// The `Host` field's value: the host (IPv6 in brackets) and the port when it is not the scheme's.
    var hostField: String
    /// The request target in origin form: the path (at least `/`) and the query, percent-encoded.
    var path: String

    /// The key of the connections that can carry this request: scheme, host and port.
    var origin: String {
        let name = Self.isIPv6(host) ? "[\(host.lowercased())]" : host.lowercased()
        return "\(isSecure ? "https" : "http")://\(name):\(port)"
    }

    /// Checks a URL and takes it apart.
    /// - Parameters:
    ///   - url: The URL to fetch.
    ///   - subject: How the error's sentence names the URL, such as "… redirected to "file:///x", which";
    ///     the URL itself, quoted, by default.
    /// - Throws: ``TransferError`` of kind `.unsupportedURL` naming what is wrong with the URL.
    init(_ url: URL, subject: String? = nil) throws(TransferError) {
        func refuse(_ reason: String) -> TransferError {
            TransferError(.remote, .unsupportedURL, "\(subject ?? url.absoluteString.debugSummary) \(reason); "
                + "only http and https URLs with a host can be downloaded")
        }
        switch url.scheme?.lowercased() {
        case "https": isSecure = true
        case "http": isSecure = false
        default: throw refuse("is not an http or https URL")
        }
        guard let encodedHost = url.host(percentEncoded: true), !encodedHost.isEmpty,
              let decodedHost = url.host(percentEncoded: false), !decodedHost.isEmpty else {
            throw refuse("has no host")
        }
        let defaultPort = isSecure ? 443 : 80
        let port = url.port ?? defaultPort
        guard (1...65535).contains(port) else { throw refuse("has the port \(port), outside 1...65535") }
        self.port = port
        host = decodedHost
        let bracketed = Self.isIPv6(encodedHost) ? "[\(encodedHost)]" : encodedHost
        hostField = port == defaultPort && url.port == nil ? bracketed : "\(bracketed):\(port)"
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        self.path = path
        // Both go into the request head as they are: a space, a control character or a byte
        // beyond ASCII there would split the head or smuggle a field into it.
        guard Self.isVisibleASCII(hostField), Self.isVisibleASCII(path), path.hasPrefix("/") else {
            throw refuse("has characters that cannot be sent in a request")
        }
    }

    /// Whether a host is an IPv6 address, the only host with a colon. (A byte scan: Foundation's
    /// `contains(_:)` on strings searched through `NSString`, for every request and origin.)
    private static func isIPv6(_ host: String) -> Bool {
        host.utf8.contains(UInt8(ascii: ":"))
    }

    private static func isVisibleASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
