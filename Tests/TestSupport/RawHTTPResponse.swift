/*
Abstract:
An HTTP/1.1 response exactly as it came off the wire: status line, header fields and body bytes.
*/

/// One header field of a raw response, with the name as the server spelled it.
public struct HTTPHeaderField: Sendable, Equatable {
    /// The field name, such as `Content-Range`.
    public var name: String
    /// The field value with surrounding whitespace removed.
    public var value: String
}

/// A response read by `RawHTTPClient`.
public struct RawHTTPResponse: Sendable, Equatable, CustomStringConvertible {
    /// The protocol version from the status line, such as `HTTP/1.1`.
    public var version: String
    /// The status code, such as 206.
    public var statusCode: Int
    /// The reason phrase, such as `Partial Content`.
    public var reasonPhrase: String
    /// The header fields in the order they arrived.
    public var headerFields: [HTTPHeaderField]
    /// The body bytes that arrived.
    public var body: [UInt8]
    /// Whether the connection closed before the whole body (per `Content-Length` or chunking) arrived.
    public var isTruncated: Bool

    /// The value of the first header field with this name, compared case-insensitively.
    /// - Parameter name: A field name such as `etag`.
    /// - Returns: Its value, or nil when the response has no such field.
    public func value(forHeader name: String) -> String? {
        values(forHeader: name).first
    }

    /// The values of all header fields with this name, compared case-insensitively.
    /// - Parameter name: A field name.
    /// - Returns: Their values in order.
    public func values(forHeader name: String) -> [String] {
        let lowered = name.lowercased()
        return headerFields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    /// The body decoded as UTF-8.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The status line and header fields, for failure messages.
    public var description: String {
        let head = ["\(version) \(statusCode) \(reasonPhrase)"] + headerFields.map { "\($0.name): \($0.value)" }
        return head.joined(separator: "\n") + "\n(\(body.count) body bytes\(isTruncated ? ", truncated" : ""))"
    }
}
