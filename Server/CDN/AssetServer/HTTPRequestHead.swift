/*
Abstract:
A parsed HTTP/1.x request head: method, target, version and header fields.
*/

/// Header fields in the order received, looked up case-insensitively.
struct HTTPHeaders: Sendable, Equatable {
    /// The fields as `(lowercased name, value without surrounding whitespace)`.
    private(set) var fields: [(name: String, value: String)] = []

    init(_ fields: [(name: String, value: String)] = []) {
        for field in fields { append(name: field.name, value: field.value) }
    }

    /// Empty fields with room for `capacity` of them.
    init(capacity: Int) {
        fields.reserveCapacity(capacity)
    }

    mutating func append(name: String, value: String) {
        fields.append((name.lowercased(), value))
    }

    /// Appends a field whose name the caller has already lowercased.
    mutating func append(lowercasedName name: String, value: String) {
        fields.append((name, value))
    }

    /// Every value of the field `name`.
    func values(for name: String) -> [String] {
        fields.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The value of a field that must occur once; `nil` when it is absent or repeated.
    func singleValue(for name: String) -> String? {
        var found: String?
        for field in fields where field.name == name {
            guard found == nil else { return nil }
            found = field.value
        }
        return found
    }

    /// The values of a list-valued field joined with commas, as RFC 9110 section 5.3 allows; `nil` when absent.
    func combinedValue(for name: String) -> String? {
        guard fields.contains(where: { $0.name == name }) else { return nil }
        return values(for: name).joined(separator: ", ")
    }

    /// The comma-separated tokens of a list field, lowercased (for `Connection`).
    func tokens(for name: String) -> [String] {
        values(for: name).flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() } }
    }

    static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// The request line and header fields of one request.
struct HTTPRequestHead: Sendable, Equatable {
    /// The method token, case-sensitive as RFC 9110 requires (`get` is not `GET`).
    var method: String
    /// The request target exactly as sent.
    var target: String
    /// The minor version of HTTP/1.x: 0 or 1.
    var minorVersion: Int
    /// The header fields.
    var headers: HTTPHeaders
    /// The declared body length; the server reads and discards bodies it does not use.
    var contentLength: Int64

    /// Whether the connection may carry another request after this one.
    ///
    /// HTTP/1.1 keeps connections open unless `Connection: close`; HTTP/1.0 closes them unless `keep-alive`.
    var wantsKeepAlive: Bool {
        guard headers.fields.contains(where: { $0.name == "connection" }) else { return minorVersion >= 1 }
        let tokens = headers.tokens(for: "connection")
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }

    /// The target's path without its query, still percent-encoded, for the access log.
    var pathForLog: String {
        String(target.prefix { $0 != "?" && $0 != "#" })
    }
}
