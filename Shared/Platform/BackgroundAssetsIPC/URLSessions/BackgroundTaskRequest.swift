/*
Abstract:
A background download's request and the server's response, as values both the framework and the service read.
*/

import Foundation

/// The request of a background download: what Foundation's `URLRequest` carries that a transfer needs.
public struct BackgroundTaskRequest: Codable, Sendable, Hashable {
    /// The URL to download.
    public var url: URL
    /// The HTTP method; background downloads use `GET`.
    public var httpMethod: String
    /// The header fields the app set on the request.
    public var headers: [String: String]

    /// Creates a request.
    public init(url: URL, httpMethod: String = "GET", headers: [String: String] = [:]) {
        self.url = url
        self.httpMethod = httpMethod
        self.headers = headers
    }

    /// Why the system cannot download this request, or `nil` when it can.
    ///
    /// Apple's background sessions support HTTP and HTTPS only; a download has no body to send.
    public var refusal: String? {
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || scheme == "http", url.host?.isEmpty == false else {
            return "Background sessions download only http and https URLs with a host; \(url.absoluteString) is neither."
        }
        guard httpMethod.uppercased() == "GET" else {
            return "A background download of \(url.absoluteString) uses \(httpMethod); download tasks send GET requests."
        }
        return nil
    }
}

/// The server's answer to a download, for the task's `response`.
public struct BackgroundTaskResponse: Codable, Sendable, Hashable {
    /// The URL that answered, after redirects.
    public var url: URL
    /// The HTTP status code.
    public var statusCode: Int
    /// The response's header fields.
    public var headers: [String: String]

    /// Creates a response.
    public init(url: URL, statusCode: Int, headers: [String: String] = [:]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
    }
}
