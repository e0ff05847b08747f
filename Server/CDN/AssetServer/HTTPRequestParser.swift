/*
Abstract:
Turns the bytes of a request head into an HTTPRequestHead, enforcing RFC 9112 syntax and the size limits.
*/

/// Why a request head was refused; each maps to the status the client receives before the connection closes.
enum HTTPRequestError: Error, Sendable, Equatable {
    case badRequest(String)
    case uriTooLong
    case headerFieldsTooLarge
    case versionNotSupported
    case notImplemented(String)

    var status: Int {
        switch self {
        case .badRequest: 400
        case .uriTooLong: 414
        case .headerFieldsTooLarge: 431
        case .versionNotSupported: 505
        case .notImplemented: 501
        }
    }
}

/// Parses request heads; strict where leniency causes request smuggling, lenient about bare LF line ends.
struct HTTPRequestParser: Sendable {
    var limits: AssetServer.Limits

    /// Finds the end of a request head in `bytes`: the index just past the empty line, or `nil` if incomplete.
    static func headLength(in bytes: UnsafeRawBufferPointer, searchingFrom start: Int = 0) -> Int? {
        var index = max(start, 1)
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if bytes[index - 1] == 0x0A { return index + 1 }
                if index >= 2, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A { return index + 1 }
            }
            index += 1
        }
        return nil
    }

    /// Parses a complete head (request line, fields and the empty line).
    /// - Throws: ``HTTPRequestError`` naming the status to answer.
    func parse(_ head: UnsafeRawBufferPointer) throws(HTTPRequestError) -> HTTPRequestHead {
        var lines = Self.lines(of: head)
        guard !lines.isEmpty else { throw .badRequest("empty request") }
        let requestLine = lines.removeFirst()
        guard requestLine.count <= limits.maximumRequestLineLength else { throw .uriTooLong }
        let (method, target, minor) = try Self.parseRequestLine(requestLine)
        guard lines.count <= limits.maximumHeaderCount else { throw .headerFieldsTooLarge }
        guard lines.reduce(0, { $0 + $1.count + 2 }) <= limits.maximumHeaderBytes else { throw .headerFieldsTooLarge }
        var headers = HTTPHeaders()
        for line in lines {
            let (name, value) = try Self.parseField(line)
            headers.append(name: name, value: value)
        }
        if !headers.values(for: "transfer-encoding").isEmpty {
            throw .notImplemented("request bodies with Transfer-Encoding are not accepted")
        }
        let lengths = Set(headers.values(for: "content-length").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingWhitespace() })
        guard lengths.count <= 1 else { throw .badRequest("conflicting Content-Length values") }
        var contentLength: Int64 = 0
        if let text = lengths.first {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
                throw .badRequest("invalid Content-Length")
            }
            contentLength = value
        }
        // RFC 9112 section 3.2: an HTTP/1.1 request without exactly one Host field is answered with 400.
        if minor == 1, headers.values(for: "host").count != 1 { throw .badRequest("missing or repeated Host") }
        return HTTPRequestHead(method: method, target: target, minorVersion: minor, headers: headers,
                               contentLength: contentLength)
    }

    /// Splits the head into lines (CRLF or bare LF), dropping empty lines before the request line
    /// (RFC 9112 section 2.2) and the empty line that ends the head.
    private static func lines(of head: UnsafeRawBufferPointer) -> [ArraySlice<UInt8>] {
        let bytes = Array(head)
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            var end = index
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            let line = bytes[start..<end]
            start = index + 1
            if line.isEmpty {
                if lines.isEmpty { continue }
                break
            }
            lines.append(line)
        }
        return lines
    }

    private static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) throws(HTTPRequestError) -> (String, String, Int) {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter) else {
            throw .badRequest("malformed request line")
        }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest("malformed request target")
        }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: "."),
              (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7]) else {
            throw .badRequest("malformed HTTP version")
        }
        guard version[5] == UInt8(ascii: "1") else { throw .versionNotSupported }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        return (method, target, version[7] == UInt8(ascii: "0") ? 0 : 1)
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> (String, String) {
        // A line starting with whitespace is obsolete line folding; whitespace before the colon is forbidden.
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
              line[line.startIndex..<colon].allSatisfy(isTokenCharacter) else {
            throw .badRequest("malformed header field")
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .badRequest("control character in a header field")
        }
        return (String(decoding: line[line.startIndex..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:
            true  // ! # $ % & ' * + - . ^ _ ` | ~
        default:
            false
        }
    }
}

extension HTTPRequestParser {
    /// Parses a head held in an array; a convenience for tests.
    func parse(_ bytes: [UInt8]) throws(HTTPRequestError) -> HTTPRequestHead {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(HTTPRequestError) in try parse(buffer) } }
        return try result.get()
    }
}
