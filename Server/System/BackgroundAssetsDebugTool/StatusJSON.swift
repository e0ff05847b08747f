/*
Abstract:
`status --json`: Foundation's pretty-printed JSON of the status, its downloads laid out by hand.
*/

import BackgroundAssetsIPC
import Foundation

/// The status as `status --json` prints it: exactly what `JSONEncoder` writes with the tool's
/// settings (pretty-printed, sorted keys, ISO 8601 dates, slashes as they are), faster.
///
/// Foundation's encoder took 0.13 s for 10,000 downloads, most of the tool's time, and thirty
/// tools at once share two cores with the service. The rest of the status still goes through
/// `JSONEncoder`; the downloads, by the thousand, are written here key by key in sorted order.
/// `StatusJSONTests` checks the bytes against `JSONEncoder`'s for downloads with every field set.
enum StatusJSON {
    /// The status as pretty-printed JSON.
    static func text(_ status: ServiceStatus) throws -> String {
        var outline = status
        outline.downloads = []
        let text = try StatusFormatter.json(outline)
        // The empty list at the top level, the only place keys are indented by two spaces; a string
        // cannot hold the line breaks, which JSON escapes.
        let empty = "\n  \"downloads\" : [\n\n  ]"
        guard !status.downloads.isEmpty, let range = text.range(of: empty) else { return text }
        var writer = WireJSONWriter()
        writer.append("\n  \"downloads\" : [\n")
        for (index, download) in status.downloads.enumerated() {
            // Each element starts on a line of its own, two levels in.
            writer.append(index > 0 ? ",\n    " : "    ")
            write(download, into: &writer)
        }
        writer.append("\n  ]")
        return text.replacingCharacters(in: range, with: String(decoding: writer.bytes, as: UTF8.self))
    }

    /// Prints the status as ``text(_:)`` lays it out, a page at a time: the status answer's own
    /// downloads, then each later page as the service wrote it (``StatusPageBytes``), so that neither
    /// the downloads nor the text of a large queue are ever held whole.
    /// - Parameters:
    ///   - status: The `status` answer: the first page of downloads and the cursor of the next.
    ///   - nextPage: Fetches the page after a cursor.
    ///   - output: Receives the text, piece by piece.
    /// - Throws: What `nextPage` throws, or ``DebugToolError`` when a page does not move past the last.
    static func print(
        _ status: ServiceStatus, nextPage: (Int64) throws -> StatusPageBytes, output: ([UInt8]) -> Void
    ) throws {
        var outline = status
        outline.downloads = []
        outline.moreDownloadsAfter = nil
        let text = try StatusFormatter.json(outline)
        let empty = "\n  \"downloads\" : [\n\n  ]"
        guard !status.downloads.isEmpty, let range = text.range(of: empty) else { return output(Array((text + "\n").utf8)) }
        var writer = WireJSONWriter()
        for (index, download) in status.downloads.enumerated() {
            writer.append(index > 0 ? ",\n    " : "    ")
            write(download, into: &writer)
        }
        output(Array((text[..<range.lowerBound] + "\n  \"downloads\" : [\n").utf8) + writer.bytes)
        var isFirst = false
        var cursor = status.moreDownloadsAfter
        while let after = cursor {
            let page = try nextPage(after)
            var piece: [UInt8] = []
            try page.appendDownloads(to: &piece, isFirst: &isFirst)
            output(piece)
            // A service whose pages did not move on would keep the tool asking for ever.
            if let next = page.moreAfter, next <= after {
                throw DebugToolError("The service's page of downloads after row \(after) ends at row \(next), not after it; "
                    + "rebuild the tool and the service from the same sources.")
            }
            cursor = page.moreAfter
        }
        output(Array(("\n  ]" + text[range.upperBound...] + "\n").utf8))
    }

    /// One download of the top-level list: an object at depth 2, its members at depth 3.
    private static func write(_ status: DownloadStatus, into writer: inout WireJSONWriter) {
        var object = PrettyObject(depth: 2, opening: &writer)
        object.member("attempts", &writer) { $0.append(status.attempts) }
        object.member("bundleIdentifier", &writer) { $0.write(status.bundleIdentifier) }
        if let expected = status.bytesExpected { object.member("bytesExpected", &writer) { $0.append(expected) } }
        object.member("bytesWritten", &writer) { $0.append(status.bytesWritten) }
        object.member("download", &writer) { writer in write(status.download, into: &writer) }
        object.member("isForeground", &writer) { $0.append(status.isForeground) }
        if let failure = status.lastError {
            object.member("lastError", &writer) { writer in
                var inner = PrettyObject(depth: 3, opening: &writer)
                inner.member("code", &writer) { $0.append(failure.code) }
                inner.member("domain", &writer) { $0.write(failure.domain) }
                inner.member("message", &writer) { $0.write(failure.message) }
                inner.close(&writer)
            }
        }
        if let date = status.nextAttemptAt {
            object.member("nextAttemptAt", &writer) { $0.write(date.ISO8601Format()) }
        }
        if let waits = status.waitsUntilReachable { object.member("waitsUntilReachable", &writer) { $0.append(waits) } }
        object.close(&writer)
    }

    /// A download's descriptor, an object at depth 3.
    private static func write(_ download: DownloadDescriptor, into writer: inout WireJSONWriter) {
        var object = PrettyObject(depth: 3, opening: &writer)
        object.member("applicationGroupIdentifier", &writer) { $0.write(download.applicationGroupIdentifier) }
        object.member("fileSize", &writer) { $0.append(download.fileSize) }
        object.member("headers", &writer) { writer in
            var headers = PrettyObject(depth: 4, opening: &writer)
            for name in download.headers.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                headers.member(name, &writer) { $0.write(download.headers[name] ?? "") }
            }
            headers.close(&writer)
        }
        object.member("identifier", &writer) { $0.write(download.identifier) }
        object.member("isEssential", &writer) { $0.append(download.isEssential) }
        object.member("kind", &writer) { $0.write(download.kind.rawValue) }
        object.member("priority", &writer) { $0.append(download.priority) }
        object.member("state", &writer) { $0.append(download.state.rawValue) }
        object.member("uniqueIdentifier", &writer) { $0.write(download.uniqueIdentifier) }
        object.member("url", &writer) { $0.write(download.url) }
        object.close(&writer)
    }
}

/// An object being written as `JSONEncoder`'s `.prettyPrinted` lays it out: two spaces per level,
/// `"key" : value`, and an empty object as a blank line between its braces.
private struct PrettyObject {
    /// The object's own level; its members are one deeper.
    let depth: Int
    private var isEmpty = true

    /// Opens an object whose closing brace is indented for `depth`.
    init(depth: Int, opening writer: inout WireJSONWriter) {
        self.depth = depth
        writer.append("{\n")
    }

    /// Writes one member; keys must come in sorted order, as `.sortedKeys` puts them.
    mutating func member(_ key: String, _ writer: inout WireJSONWriter, _ value: (inout WireJSONWriter) -> Void) {
        if !isEmpty { writer.append(",\n") }
        isEmpty = false
        Self.indent(depth + 1, &writer)
        writer.write(key)
        writer.append(" : ")
        value(&writer)
    }

    /// Closes the object.
    func close(_ writer: inout WireJSONWriter) {
        writer.append("\n")
        Self.indent(depth, &writer)
        writer.append("}")
    }

    private static func indent(_ level: Int, _ writer: inout WireJSONWriter) {
        for _ in 0..<level { writer.append("  ") }
    }
}
