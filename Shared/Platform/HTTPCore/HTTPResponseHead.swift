/*
Abstract:
The status line and header fields of an HTTP/1.1 response, as the asset server sends them and the service and the app read them.
*/

/// The head of an HTTP response: a status and header fields, in order, names compared case-insensitively.
///
/// One type for both ends: the asset server builds heads and serializes each in one buffer, so each
/// is one write; the service's transfer engine and the app's https fetch parse the heads they
/// receive into the same type (``init(parsing:)``).
public struct HTTPResponseHead: Sendable, Equatable {
    /// The status code, such as 200 or 206.
    public var status: Int
    /// The header fields in order, names as sent.
    public var fields: [(name: String, value: String)]

    /// A head with a status and fields.
    public init(status: Int, fields: [(name: String, value: String)] = []) {
        self.status = status
        self.fields = fields
    }

    public static func == (lhs: HTTPResponseHead, rhs: HTTPResponseHead) -> Bool {
        lhs.status == rhs.status && lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
    }

    /// Appends a header field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// The value of the first field with this name, or `nil`.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// All values of the fields with this name, for fields that may repeat.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// The head as bytes, always with the HTTP/1.1 version: a server sends its own highest version.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(32) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        bytes.append(contentsOf: "HTTP/1.1 ".utf8)
        bytes.append(contentsOf: String(status).utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: Self.reasonPhrase(for: status).utf8)
        bytes.append(contentsOf: "\r\n".utf8)
        for field in fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }

    /// Field names are ASCII and compared without case (RFC 9110, section 5.1).
    private static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.lowercased() == rhs.lowercased()
    }

    /// The reason phrase RFC 9110 registers for the statuses the asset server can send.
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 418: "I'm a teapot"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: status < 500 ? "Client Error" : "Server Error"
        }
    }
}
