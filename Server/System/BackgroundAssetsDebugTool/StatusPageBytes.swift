/*
Abstract:
A page of `status` downloads as the service wrote it, laid out for `status --json` without decoding it.
*/

import BackgroundAssetsIPC
import Foundation

/// The payload of a `downloadStatuses` answer, read where it lies: where its downloads are, where
/// the next page starts, and each download rewritten as `status --json` prints it.
///
/// The service writes a page as compact JSON with sorted keys and the strings escaped as
/// `JSONEncoder` escapes them (`WireJSONWriter`), which is what `status --json` prints, only laid
/// out on one line. Rewriting those bytes with `JSONEncoder`'s indentation, and each
/// `nextAttemptAt` (seconds since 1970) as an ISO 8601 date, gives the same text as decoding the
/// page and encoding it again, without either: decoding the pages into values took 42% of a tool's
/// time with 10,000 downloads, and encoding them again most of the rest. `StatusPageBytesTests`
/// holds the text to `StatusJSON`'s.
struct StatusPageBytes {
    /// The frame's payload.
    let payload: [UInt8]
    /// Where the list of downloads starts: its `[`.
    let downloadsStart: Int
    /// Where the next page starts, or `nil` when this is the last page.
    let moreAfter: Int64?

    /// Finds the page in an answer's payload.
    /// - Returns: The page, or `nil` when the payload is an event, not an answer.
    /// - Throws: ``DebugToolError`` with the service's failure, or when the payload is not a page.
    static func parse(_ payload: [UInt8]) throws(DebugToolError) -> StatusPageBytes? {
        let json = CompactJSON(bytes: payload)
        do {
            guard let message = try json.member("response", ofObjectAt: 0) else { return nil }
            guard let answer = try json.member("response", ofObjectAt: message) else { throw CompactJSON.Malformed(at: message) }
            guard let pageAnswer = try json.member("downloadStatuses", ofObjectAt: answer) else {
                // A failure, or another answer: decoded as any answer is, to say what it was.
                let response = (try? MessageCodec.decode(ServerMessage.self, from: payload)).flatMap { message in
                    if case let .response(_, response) = message { response } else { nil }
                }
                if case let .failure(failure)? = response { throw DebugToolError(failure.message) }
                throw DebugToolError("The service answered core.fetchDownloadStatuses with \(response.map { "\($0)" } ?? "a message this tool cannot read"); "
                    + "rebuild the tool and the service from the same sources.")
            }
            guard let page = try json.member("page", ofObjectAt: pageAnswer),
                  let downloads = try json.member("downloads", ofObjectAt: page), downloads < payload.count,
                  payload[downloads] == UInt8(ascii: "[")
            else { throw CompactJSON.Malformed(at: pageAnswer) }
            var moreAfter: Int64?
            if let cursor = try json.member("moreAfter", ofObjectAt: page) {
                let end = try json.endOfValue(at: cursor)
                guard let value = Int64(String(decoding: payload[cursor..<end], as: UTF8.self)) else {
                    throw CompactJSON.Malformed(at: cursor)
                }
                moreAfter = value
            }
            return StatusPageBytes(payload: payload, downloadsStart: downloads, moreAfter: moreAfter)
        } catch let error as DebugToolError {
            throw error
        } catch {
            throw DebugToolError("The service's page of downloads is not the JSON this tool reads (\(error)); "
                + "rebuild the tool and the service from the same sources.")
        }
    }

    /// Appends each download of the page as `status --json` prints an element of its top-level
    /// `downloads` list: an object two levels in, after a comma and line break unless it is the first.
    /// - Parameters:
    ///   - output: Where the text goes.
    ///   - isFirst: Whether nothing was listed before; cleared once a download is written.
    /// - Returns: How many downloads the page held.
    /// - Throws: ``DebugToolError`` when the page is not well-formed JSON.
    @discardableResult
    func appendDownloads(to output: inout [UInt8], isFirst: inout Bool) throws(DebugToolError) -> Int {
        var writer = PrettyJSONWriter(json: CompactJSON(bytes: payload), output: output)
        output = []
        defer { output = writer.output }
        do {
            return try writer.appendElements(ofArrayAt: downloadsStart, isFirst: &isFirst)
        } catch {
            throw DebugToolError("The service's page of downloads is not the JSON this tool reads (\(error)); "
                + "rebuild the tool and the service from the same sources.")
        }
    }
}

/// Rewrites compact JSON with `JSONEncoder`'s `.prettyPrinted` layout: two spaces a level,
/// `"key" : value`, and an empty object or array as a blank line between its brackets.
private struct PrettyJSONWriter {
    let json: CompactJSON
    var output: [UInt8]

    /// Appends the elements of the top-level `downloads` list, each at depth 2.
    mutating func appendElements(ofArrayAt start: Int, isFirst: inout Bool) throws -> Int {
        var index = start + 1
        var count = 0
        while index < json.bytes.count, json.bytes[index] != UInt8(ascii: "]") {
            output.append(contentsOf: isFirst ? Self.elementIndent : Self.nextElement)
            isFirst = false
            index = try appendValue(at: index, depth: 2, isDateValue: false)
            count += 1
            index = try json.afterSeparator(index, closing: UInt8(ascii: "]"))
        }
        guard index < json.bytes.count else { throw CompactJSON.Malformed(at: index) }
        return count
    }

    /// Appends the value at `index` laid out for `depth`, and returns where it ends.
    private mutating func appendValue(at index: Int, depth: Int, isDateValue: Bool) throws -> Int {
        let bytes = json.bytes
        guard index < bytes.count else { throw CompactJSON.Malformed(at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try appendContainer(at: index, depth: depth, closing: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            return try appendContainer(at: index, depth: depth, closing: UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            let end = try json.endOfString(at: index)
            output.append(contentsOf: bytes[index..<end])
            return end
        default:
            let end = try json.endOfValue(at: index)
            if isDateValue {
                // The wire gives a date as seconds since 1970; `status --json` prints it as ISO 8601.
                guard let seconds = Double(String(decoding: bytes[index..<end], as: UTF8.self)) else {
                    throw CompactJSON.Malformed(at: index)
                }
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: Date(timeIntervalSince1970: seconds).ISO8601Format().utf8)
                output.append(UInt8(ascii: "\""))
            } else {
                output.append(contentsOf: bytes[index..<end])
            }
            return end
        }
    }

    /// Appends an object or array whose members are one level deeper than `depth`.
    private mutating func appendContainer(at start: Int, depth: Int, closing: UInt8) throws -> Int {
        let bytes = json.bytes
        let isObject = closing == UInt8(ascii: "}")
        output.append(bytes[start])
        output.append(UInt8(ascii: "\n"))
        var index = start + 1
        var isFirst = true
        while index < bytes.count, bytes[index] != closing {
            if !isFirst { output.append(contentsOf: Self.comma) }
            isFirst = false
            appendIndent(depth + 1)
            var isDate = false
            if isObject {
                let keyEnd = try json.endOfString(at: index)
                // The status's own `nextAttemptAt`, two levels in, is the only date among the downloads.
                isDate = depth == 2 && bytes[index..<keyEnd].elementsEqual(Self.nextAttemptAtKey)
                output.append(contentsOf: bytes[index..<keyEnd])
                guard keyEnd < bytes.count, bytes[keyEnd] == UInt8(ascii: ":") else { throw CompactJSON.Malformed(at: keyEnd) }
                output.append(contentsOf: Self.colon)
                index = keyEnd + 1
            }
            index = try appendValue(at: index, depth: depth + 1, isDateValue: isDate)
            index = try json.afterSeparator(index, closing: closing)
        }
        guard index < bytes.count else { throw CompactJSON.Malformed(at: index) }
        // An empty container keeps a blank line between its brackets, as JSONEncoder lays it out.
        output.append(UInt8(ascii: "\n"))
        appendIndent(depth)
        output.append(closing)
        return index + 1
    }

    private mutating func appendIndent(_ depth: Int) {
        for _ in 0..<depth { output.append(contentsOf: Self.indentUnit) }
    }

    private static let indentUnit: [UInt8] = Array("  ".utf8)
    private static let comma: [UInt8] = Array(",\n".utf8)
    private static let colon: [UInt8] = Array(" : ".utf8)
    private static let elementIndent: [UInt8] = Array("    ".utf8)
    private static let nextElement: [UInt8] = Array(",\n    ".utf8)
    private static let nextAttemptAtKey: [UInt8] = Array("\"nextAttemptAt\"".utf8)
}

/// Compact JSON (no spaces between tokens, as the service writes it), read where it lies.
struct CompactJSON {
    /// Where the JSON stops being what this reader expects.
    struct Malformed: Error, CustomStringConvertible {
        let at: Int
        var description: String { "unexpected byte at offset \(at)" }
    }

    let bytes: [UInt8]

    /// Where the value of the member named `key` of the object at `start` begins, or `nil` without one.
    func member(_ key: String, ofObjectAt start: Int) throws -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { throw Malformed(at: start) }
        let quoted = Array("\"\(key)\"".utf8)
        var index = start + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
            let keyEnd = try endOfString(at: index)
            guard keyEnd < bytes.count, bytes[keyEnd] == UInt8(ascii: ":") else { throw Malformed(at: keyEnd) }
            if bytes[index..<keyEnd].elementsEqual(quoted) { return keyEnd + 1 }
            index = try afterSeparator(endOfValue(at: keyEnd + 1), closing: UInt8(ascii: "}"))
        }
        guard index < bytes.count else { throw Malformed(at: index) }
        return nil
    }

    /// Where the string starting with the quote at `start` ends: just past its closing quote.
    func endOfString(at start: Int) throws -> Int {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { throw Malformed(at: start) }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        throw Malformed(at: start)
    }

    /// Where the value starting at `start` ends.
    func endOfValue(at start: Int) throws -> Int {
        guard start < bytes.count else { throw Malformed(at: start) }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return try endOfString(at: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let closing = bytes[start] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            var index = start + 1
            while index < bytes.count, bytes[index] != closing {
                if closing == UInt8(ascii: "}") {
                    let keyEnd = try endOfString(at: index)
                    guard keyEnd < bytes.count, bytes[keyEnd] == UInt8(ascii: ":") else { throw Malformed(at: keyEnd) }
                    index = keyEnd + 1
                }
                index = try afterSeparator(endOfValue(at: index), closing: closing)
            }
            guard index < bytes.count else { throw Malformed(at: start) }
            return index + 1
        default:
            var index = start
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[index]) {
                index += 1
            }
            guard index > start else { throw Malformed(at: start) }
            return index
        }
    }

    /// Past the comma after a member or element, or at the container's closing bracket.
    func afterSeparator(_ index: Int, closing: UInt8) throws -> Int {
        guard index < bytes.count else { throw Malformed(at: index) }
        if bytes[index] == UInt8(ascii: ",") { return index + 1 }
        guard bytes[index] == closing else { throw Malformed(at: index) }
        return index
    }
}
