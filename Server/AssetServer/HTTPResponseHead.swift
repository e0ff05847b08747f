/*
Abstract:
A response status line and header fields, serialized in one buffer so each head is one write.
*/

/// The status line and fields of one response.
struct HTTPResponseHead: Sendable {
    var status: Int
    var fields: [(name: String, value: String)] = []

    init(status: Int) {
        self.status = status
    }

    mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// The head as bytes, always with the HTTP/1.1 version: a server sends its own highest version.
    func serialized() -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(for: status))\r\n"
        for field in fields {
            text += field.name
            text += ": "
            text += field.value
            text += "\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The reason phrase RFC 9110 registers for the statuses this server can send.
    static func reasonPhrase(for status: Int) -> String {
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
