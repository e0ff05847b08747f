/*
Abstract:
A background download's request and the server's response, as values both the framework and the service read.
*/

import Foundation

/// The request of a background transfer: what Foundation's `URLRequest` carries that a transfer needs.
public struct BackgroundTaskRequest: Codable, Sendable, Hashable {
    /// The URL to download from or upload to.
    public var url: URL
    /// The HTTP method; background downloads use `GET`, uploads `PUT`, `POST` or `PATCH`.
    public var httpMethod: String
    /// The header fields the app set on the request.
    public var headers: [String: String]
    /// The file an upload task sends as its body (`uploadTask(with:fromFile:)`), `nil` for a download.
    /// The app names its own file; the system copies it when the task is made and names the copy here.
    public var bodyFile: URL?

    /// Creates a request.
    public init(url: URL, httpMethod: String = "GET", headers: [String: String] = [:], bodyFile: URL? = nil) {
        self.url = url
        self.httpMethod = httpMethod
        self.headers = headers
        self.bodyFile = bodyFile
    }

    /// Whether the request is an upload's: it sends a file.
    public var isUpload: Bool { bodyFile != nil }

    /// The methods an upload task may send its file with.
    public static let uploadMethods: Set<String> = ["PUT", "POST", "PATCH"]

    /// Why the system cannot transfer this request, or `nil` when it can.
    ///
    /// Apple's background sessions support HTTP and HTTPS only; a download has no body to send, and
    /// an upload sends its file with a method that carries a body.
    public var refusal: String? {
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || scheme == "http", url.host?.isEmpty == false else {
            return "Background sessions transfer only http and https URLs with a host; \(url.absoluteString) is neither."
        }
        if let bodyFile {
            guard bodyFile.isFileURL, bodyFile.path.hasPrefix("/") else {
                return "The upload to \(url.absoluteString) names \(bodyFile.absoluteString), which is not a file path; "
                    + "pass the file's URL (URL(fileURLWithPath:)) to uploadTask(with:fromFile:)."
            }
            guard Self.uploadMethods.contains(httpMethod.uppercased()) else {
                return "A background upload to \(url.absoluteString) uses \(httpMethod); set the request's httpMethod to "
                    + "PUT, POST or PATCH, which send a body."
            }
            return nil
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
