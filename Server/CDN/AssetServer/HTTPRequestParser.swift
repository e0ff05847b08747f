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

    /// Parses a complete head (request line, fields and the empty line).
    /// - Throws: ``HTTPRequestError`` naming the status to answer.
    func parse(_ head: UnsafeRawBufferPointer) throws(HTTPRequestError) -> HTTPRequestHead {
        // Every request comes through here: the head is read where it lies, a line at a time, without copies.
        let bytes = head.bindMemory(to: UInt8.self)
        var lines = HeadLines(bytes)
        guard let requestLine = lines.next() else { throw .badRequest("empty request") }
        guard requestLine.count <= limits.maximumRequestLineLength else { throw .uriTooLong }
        let (method, target, minor) = try Self.parseRequestLine(bytes[requestLine])
        let fieldLines = lines
        var fieldCount = 0
        var fieldBytes = 0
        while let line = lines.next() {
            fieldCount += 1
            fieldBytes += line.count + 2
        }
        guard fieldCount <= limits.maximumHeaderCount else { throw .headerFieldsTooLarge }
        guard fieldBytes <= limits.maximumHeaderBytes else { throw .headerFieldsTooLarge }
        var headers = HTTPHeaders(capacity: fieldCount)
        lines = fieldLines
        while let line = lines.next() {
            let (name, value) = try Self.parseField(bytes[line])
            headers.append(lowercasedName: name, value: value)
        }
        let framing = try Self.bodyFraming(of: headers)
        // RFC 9112 section 3.2: an HTTP/1.1 request without exactly one Host field is answered with 400.
        if minor == 1, framing.hostCount != 1 { throw .badRequest("missing or repeated Host") }
        return HTTPRequestHead(method: method, target: target, minorVersion: minor, headers: headers,
                               contentLength: framing.contentLength)
    }

    /// The lines of a head (CRLF or bare LF) as ranges, skipping empty lines before the request line
    /// (RFC 9112 section 2.2) and stopping at the empty line that ends the head.
    private struct HeadLines {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var sawLine = false

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func next() -> Range<Int>? {
            while let newline = bytes[position...].firstIndex(of: 0x0A) {
                let start = position
                var end = newline
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                position = newline + 1
                if start < end {
                    sawLine = true
                    return start..<end
                }
                if sawLine {
                    position = bytes.count
                    return nil
                }
            }
            return nil
        }
    }

    /// Reads the fields that frame a body, and counts Host, in one pass over the fields.
    private static func bodyFraming(
        of headers: HTTPHeaders
    ) throws(HTTPRequestError) -> (contentLength: Int64, hostCount: Int) {
        var hostCount = 0
        var hasTransferEncoding = false
        var length: Substring?
        var lengthsConflict = false
        for field in headers.fields {
            switch field.name {
            case "host":
                hostCount += 1
            case "transfer-encoding":
                hasTransferEncoding = true
            case "content-length":
                // A list of equal values is one value (RFC 9110 section 8.6); different values are an attack.
                for member in field.value.split(separator: ",") {
                    let text = member.trimmingWhitespace()
                    if let length, length != text { lengthsConflict = true }
                    length = text
                }
            default:
                continue
            }
        }
        if hasTransferEncoding { throw .notImplemented("request bodies with Transfer-Encoding are not accepted") }
        guard !lengthsConflict else { throw .badRequest("conflicting Content-Length values") }
        guard let text = length else { return (0, hostCount) }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
            throw .badRequest("invalid Content-Length")
        }
        return (value, hostCount)
    }

    private static func parseRequestLine(
        _ line: Slice<UnsafeBufferPointer<UInt8>>
    ) throws(HTTPRequestError) -> (String, String, Int) {
        guard let firstSpace = line.firstIndex(of: 0x20),
              let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 0x20),
              !line[(secondSpace + 1)...].contains(0x20) else {
            throw .badRequest("malformed request line")
        }
        let methodBytes = line[line.startIndex..<firstSpace]
        let targetBytes = line[(firstSpace + 1)..<secondSpace]
        let version = line[(secondSpace + 1)...]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(isTokenCharacter) else {
            throw .badRequest("malformed request line")
        }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest("malformed request target")
        }
        let base = version.startIndex
        guard version.count == 8, version.starts(with: "HTTP/".utf8), version[base + 6] == UInt8(ascii: "."),
              (0x30...0x39).contains(version[base + 5]), (0x30...0x39).contains(version[base + 7]) else {
            throw .badRequest("malformed HTTP version")
        }
        guard version[base + 5] == UInt8(ascii: "1") else { throw .versionNotSupported }
        let method = String(decoding: methodBytes, as: UTF8.self)
        let target = String(decoding: targetBytes, as: UTF8.self)
        return (method, target, version[base + 7] == UInt8(ascii: "0") ? 0 : 1)
    }

    /// Splits a field line into its lowercased name and its value without surrounding whitespace.
    private static func parseField(
        _ line: Slice<UnsafeBufferPointer<UInt8>>
    ) throws(HTTPRequestError) -> (String, String) {
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
        // Token characters are ASCII, so lowercasing them byte by byte is exact.
        let name = String(unsafeUninitializedCapacity: colon - line.startIndex) { buffer in
            for (offset, byte) in line[line.startIndex..<colon].enumerated() {
                buffer[offset] = byte.asciiLowercased
            }
            return colon - line.startIndex
        }
        return (name, String(decoding: value, as: UTF8.self))
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
