/*
Abstract:
Writes a manifest's JSON directly, a piece at a time, in the exact layout JSONEncoder gives it.
*/

import Foundation

/// Writes a manifest as `JSONEncoder` does with `.prettyPrinted`, `.sortedKeys` and
/// `.withoutEscapingSlashes`, byte for byte, without building the encoder's tree of the whole document.
///
/// The extension saves every manifest it is given; with 100,000 sessions the encoder's tree and its
/// 30 MB of text came on top of the sessions themselves. Here the text goes out in pieces of
/// ``ManifestBytes/pieceSize`` as it is written. `ManifestWriterTests` holds the bytes to `JSONEncoder`'s.
struct ManifestWriter {
    private var output: [UInt8] = []

    /// Writes `manifest`, handing each full piece to `emit`, and the rest when done.
    static func write(_ manifest: Manifest, emit: ([UInt8]) throws -> Void) throws {
        var writer = ManifestWriter()
        writer.output.reserveCapacity(ManifestBytes.pieceSize + 4096)
        try writer.write(manifest, emit: emit)
    }

    private mutating func write(_ manifest: Manifest, emit: ([UInt8]) throws -> Void) throws {
        // The keys in sorted order, as `.sortedKeys` puts them.
        append("{\n  \"sessions\" : [")
        for (index, session) in manifest.sessions.enumerated() {
            append(index == 0 ? "\n    {\n" : ",\n    {\n")
            member("essential", session.essential ? "true" : "false")
            member("fileSize", String(session.fileSize))
            member("id", string: session.id)
            member("sha256", string: session.sha256)
            if let thumbnailURL = session.thumbnailURL {
                member("thumbnailURL", string: thumbnailURL.absoluteString)
            }
            member("title", string: session.title)
            member("url", string: session.urlText, isLast: true)
            append("    }")
            if output.count >= ManifestBytes.pieceSize { try flush(emit) }
        }
        append(manifest.sessions.isEmpty ? "\n\n  ],\n" : "\n  ],\n")
        append("  \"version\" : \(manifest.version)\n}")
        try flush(emit)
    }

    private mutating func member(_ key: String, _ literal: String, isLast: Bool = false) {
        append("      \"\(key)\" : ")
        append(literal)
        append(isLast ? "\n" : ",\n")
    }

    private mutating func member(_ key: String, string value: String, isLast: Bool = false) {
        append("      \"\(key)\" : ")
        appendQuoted(value)
        append(isLast ? "\n" : ",\n")
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    /// A string as `JSONEncoder` escapes it: quotes, backslashes and control characters, nothing else.
    private mutating func appendQuoted(_ text: String) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                append(hex.count == 1 ? "\\u000\(hex)" : "\\u00\(hex)")
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private mutating func flush(_ emit: ([UInt8]) throws -> Void) throws {
        guard !output.isEmpty else { return }
        try emit(output)
        output.removeAll(keepingCapacity: true)
    }
}
