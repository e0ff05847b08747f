/*
Abstract:
Decodes an HTTP/1.1 chunked body incrementally, whatever the sizes of the pieces the socket delivers.
*/

/// An incremental decoder for `Transfer-Encoding: chunked` (RFC 9112 section 7.1).
struct ChunkedBodyDecoder {
    private enum State: Equatable {
        case size(line: [UInt8])
        case data(remaining: Int64)
        case dataEnd(seenCR: Bool)
        case trailer(line: [UInt8])
        case done
    }

    private var state = State.size(line: [])

    /// Whether the last chunk and the trailer section have been read.
    var isComplete: Bool { state == .done }

    /// Feeds received bytes and calls `emit` with each run of body data they contain, in order.
    /// - Throws: A remote ``TransferError`` when the framing is malformed.
    mutating func decode(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws(TransferError) -> Void) throws(TransferError) {
        var index = 0
        while index < input.count {
            switch state {
            case var .size(line):
                let byte = input[index]
                index += 1
                if byte == UInt8(ascii: "\n") {
                    state = try Self.parseSize(line)
                } else {
                    line.append(byte)
                    guard line.count <= 1024 else { throw Self.malformed("a chunk size line is too long") }
                    state = .size(line: line)
                }
            case let .data(remaining):
                let count = Int(min(remaining, Int64(input.count - index)))
                try emit(UnsafeRawBufferPointer(rebasing: input[index..<index + count]))
                index += count
                state = remaining - Int64(count) == 0 ? .dataEnd(seenCR: false) : .data(remaining: remaining - Int64(count))
            case let .dataEnd(seenCR):
                let byte = input[index]
                index += 1
                if byte == UInt8(ascii: "\r"), !seenCR {
                    state = .dataEnd(seenCR: true)
                } else if byte == UInt8(ascii: "\n") {
                    state = .size(line: [])
                } else {
                    throw Self.malformed("a chunk is longer than its size says")
                }
            case var .trailer(line):
                let byte = input[index]
                index += 1
                if byte == UInt8(ascii: "\n") {
                    state = line.isEmpty || line == [UInt8(ascii: "\r")] ? .done : .trailer(line: [])
                } else {
                    line.append(byte)
                    guard line.count <= 8192 else { throw Self.malformed("a trailer line is too long") }
                    state = .trailer(line: line)
                }
            case .done:
                return
            }
        }
    }

    private static func parseSize(_ line: [UInt8]) throws(TransferError) -> State {
        var digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "\r") }
        while digits.last == UInt8(ascii: " ") || digits.last == UInt8(ascii: "\t") { digits.removeLast() }
        let shown = String(decoding: line.prefix(40), as: UTF8.self)
        guard !digits.isEmpty, digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0
                  || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 || UInt8(ascii: "A")...UInt8(ascii: "F") ~= $0 }) else {
            throw malformed("the chunk size \"\(shown)\" is not hexadecimal")
        }
        // Fifteen hexadecimal digits are a chunk of up to 2^60 bytes: more than any file is, yet
        // summed with the bytes so far it can never overflow a 64-bit count.
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 15, let size = Int64(String(decoding: digits, as: UTF8.self), radix: 16) else {
            throw malformed("the chunk size \"\(shown)\" is larger than any file (more than 15 hexadecimal digits)")
        }
        return size == 0 ? .trailer(line: []) : .data(remaining: size)
    }

    private static func malformed(_ reason: String) -> TransferError {
        TransferError(.remote, .malformedResponse, reason)
    }
}
