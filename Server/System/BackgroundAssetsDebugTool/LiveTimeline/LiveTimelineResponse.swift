/*
Abstract:
What the live timeline's server answers a request with: the page, the picture, or an error in a sentence.
*/

/// One answer of the live timeline's server, written with `Connection: close`.
struct LiveTimelineResponse: Equatable, Sendable {
    var status: Int
    var reason: String
    var contentType: String
    var body: [UInt8]
    /// Fields beyond the ones every answer carries, such as `Allow`.
    var extraFields: [(name: String, value: String)] = []
    /// Whether the body is left out, as a HEAD request asks.
    var omitsBody = false

    init(status: Int, reason: String, contentType: String, body: String) {
        self.status = status
        self.reason = reason
        self.contentType = contentType
        self.body = Array(body.utf8)
    }

    /// An error answer whose body says what went wrong and what the server does answer.
    static func error(_ status: Int, _ reason: String, _ sentence: String) -> LiveTimelineResponse {
        LiveTimelineResponse(status: status, reason: reason, contentType: "text/plain; charset=utf-8",
                             body: "\(status) \(reason): \(sentence)\n")
    }

    /// The bytes on the wire: status line, fields, and the body unless left out.
    var serialized: [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        // The page and the picture change with every event: a cached copy would stop the view.
        head += "Cache-Control: no-store\r\nConnection: close\r\n"
        for field in extraFields { head += "\(field.name): \(field.value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (omitsBody ? [] : body)
    }

    static func == (lhs: LiveTimelineResponse, rhs: LiveTimelineResponse) -> Bool {
        lhs.serialized == rhs.serialized
    }
}
