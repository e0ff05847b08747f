/*
Abstract:
Reading a received response head strictly: its status line, its fields, and the body length it declares.
*/

import Foundation

extension HTTPResponseHead {
    /// The declared body length, `nil` when absent; throws when malformed or contradictory,
    /// because a response whose length is in doubt cannot be trusted to be complete.
    public func contentLength() throws(HTTPError) -> Int64? {
        let values = values("Content-Length")
        guard let first = values.first else { return nil }
        guard values.allSatisfy({ $0 == first }), let length = Int64(first), length >= 0,
              first.allSatisfy(\.isNumber) else {
            throw HTTPError(.malformedResponse, "Content-Length \"\(values.joined(separator: ", "))\" is not one non-negative number")
        }
        return length
    }

    /// Whether the body uses chunked transfer coding.
    public var isChunked: Bool {
        values("Transfer-Encoding").joined(separator: ",").split(separator: ",")
            .last.map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "chunked" } ?? false
    }

    /// The codings applied to the body beyond chunked framing, as `Field: coding`, or `nil` when
    /// the body is the file's bytes as they are.
    ///
    /// Both clients ask for `Accept-Encoding: identity`: a server that compresses anyway (`gzip`,
    /// `br`, a transfer coding such as `gzip, chunked`) would have the compressed bytes saved as
    /// the file, with a length that can even match the declared size.
    public var unrequestedCoding: String? {
        func codings(_ name: String) -> [String] {
            values(name).flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty && $0 != "identity" }
        }
        let content = codings("Content-Encoding")
        if !content.isEmpty { return "Content-Encoding: \(content.joined(separator: ", "))" }
        let transfer = codings("Transfer-Encoding")
        if transfer.contains(where: { $0 != "chunked" }) || transfer.count > 1 { return "Transfer-Encoding: \(transfer.joined(separator: ", "))" }
        return nil
    }

    /// Parses a response head (everything before the blank line, without it).
    ///
    /// The bytes are split and trimmed as bytes, and only names and values become strings: every
    /// download parses a head, and doing it on a `String` with Foundation's character sets cost
    /// more than the rest of the exchange.
    /// - Throws: ``HTTPError`` of kind `.malformedResponse`, naming what was malformed.
    public init(parsing bytes: some Collection<UInt8>) throws(HTTPError) {
        self.init(status: 0)
        let head = Array(bytes)
        // UTF-8 when it is, else Latin-1, which any bytes are.
        let isUTF8 = String(validating: head, as: UTF8.self) != nil
        func text(_ slice: ArraySlice<UInt8>) -> String {
            isUTF8 ? String(decoding: slice, as: UTF8.self) : String(slice.map { Character(Unicode.Scalar($0)) })
        }
        var lines = Self.lines(of: head)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: "HTTP/1.".utf8), parts[1].count == 3,
              let status = Int(text(parts[1])), (100...599).contains(status) else {
            throw HTTPError(.malformedResponse, "the status line \"\(text(statusLine).prefix(100))\" is not HTTP/1.x")
        }
        self.status = status
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon != line.startIndex,
                  !line[..<colon].contains(where: isBlank) else {
                throw HTTPError(.malformedResponse, "the header line \"\(text(line).prefix(100))\" is malformed")
            }
            var value = line[(colon + 1)...]
            while let first = value.first, isBlank(first) { value.removeFirst() }
            while let last = value.last, isBlank(last) { value.removeLast() }
            fields.append((text(line[..<colon]), text(value)))
        }
    }

    /// The lines of a head, split at each CR LF.
    private static func lines(of head: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var index = head.startIndex
        while index + 1 < head.endIndex {
            if head[index] == UInt8(ascii: "\r"), head[index + 1] == UInt8(ascii: "\n") {
                lines.append(head[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(head[start...])
        return lines
    }
}
