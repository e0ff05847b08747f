/*
Abstract:
How a session keeps its URL and checksum small: a manifest of 100,000 sessions is held whole.
*/

import Foundation

extension Session {
    /// A session's URL as the text it parses from, rather than as a `URL`.
    ///
    /// On Linux a `URL` takes about 400 bytes and its text about 80: with 100,000 sessions the
    /// difference was a third of the extension's memory. The URL is parsed again when asked for.
    struct Address: Hashable, Sendable {
        private enum Storage: Hashable, Sendable {
            /// Text that parses back to a URL with the same text.
            case text(String)
            /// A URL whose text would not parse back the same, kept whole.
            case url(URL)
        }

        private let storage: Storage

        init(_ url: URL) {
            let text = url.absoluteString
            storage = URL(string: text)?.absoluteString == text ? .text(text) : .url(url)
        }

        /// The text of a URL just parsed from it, whose `absoluteString` is the same text: it parses
        /// back to the same URL, which the other initialiser would parse again to learn.
        init(parsedText text: String) {
            storage = .text(text)
        }

        /// The URL, parsed again from its text.
        var url: URL {
            switch storage {
            // The text was parsed when it was stored, and parsing gives the same URL every time; the
            // fallback keeps the getter from trapping all the same.
            case let .text(text): URL(string: text) ?? URL(fileURLWithPath: text)
            case let .url(url): url
            }
        }

        /// The extension of the URL's path, as `URL.pathExtension` gives it.
        ///
        /// Read from the text when the file name in it is plain (letters, digits, `-`, `_`, `.`, `~`),
        /// without parsing a URL: the app and the extension look for every session's file by its
        /// name, and parsing a URL for each took a tenth of a second for every 10,000 sessions.
        /// Anything else (percent escapes, a trailing slash, a scheme without `//`) asks the URL.
        var pathExtension: String {
            if case let .text(text) = storage, let plain = Self.plainPathExtension(in: text) { return plain }
            return url.pathExtension
        }

        /// The extension of the last component of `text`'s path, or `nil` when that is not plain.
        static func plainPathExtension(in text: String) -> String? {
            let utf8 = text.utf8
            // The path ends where the query or the fragment starts.
            let end = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
            var pathStart = utf8.startIndex
            if let colon = utf8[..<end].firstIndex(of: UInt8(ascii: ":")),
               !utf8[..<colon].contains(UInt8(ascii: "/")) {
                // A scheme: only `scheme://authority/path` is read here.
                let slashes = utf8[utf8.index(after: colon)...].prefix(2)
                guard slashes.elementsEqual("//".utf8) else { return nil }
                let authorityStart = utf8.index(colon, offsetBy: 3)
                pathStart = utf8[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            }
            let path = utf8[pathStart..<end]
            guard path.last != UInt8(ascii: "/") else { return nil }
            let name = path.lastIndex(of: UInt8(ascii: "/")).map { path[path.index(after: $0)...] } ?? path
            guard name.allSatisfy(isPlainFileNameByte) else { return nil }
            // No dot, a hidden name's dot, or a dot at the end: no extension.
            guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex,
                  name.index(after: dot) != name.endIndex
            else { return "" }
            // Only dots before it ("..mp4"): Foundation's own rules for "." and "..", left to it.
            guard !name[..<dot].allSatisfy({ $0 == UInt8(ascii: ".") }) else { return nil }
            return String(text[name.index(after: dot)..<name.endIndex])
        }

        private static func isPlainFileNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "."), UInt8(ascii: "~"):
                true
            default:
                false
            }
        }

        /// The URL's absolute text, as the manifest writes it.
        var text: String {
            switch storage {
            case let .text(text): text
            case let .url(url): url.absoluteString
            }
        }
    }

    /// A SHA-256 as its 32 bytes rather than as 64 characters of text.
    ///
    /// A string of 64 characters is an allocation of 112 bytes; with 100,000 sessions the checksums
    /// took more memory than the rest of their sessions' fields.
    struct Digest: Hashable, Sendable {
        private enum Storage: Hashable, Sendable {
            /// 64 lowercase hexadecimal digits, as four 64-bit words, first digits first.
            case words(UInt64, UInt64, UInt64, UInt64)
            /// Any other text (only a session made in code can have one), kept as it is.
            case text(String)
        }

        private let storage: Storage

        init(_ text: String) {
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var count = 0
            for byte in text.utf8 {
                let nibble: UInt64
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(byte - UInt8(ascii: "a") + 10)
                default: nibble = 16
                }
                guard nibble < 16, count < 64 else {
                    storage = .text(text)
                    return
                }
                switch count / 16 {
                case 0: words.0 = words.0 << 4 | nibble
                case 1: words.1 = words.1 << 4 | nibble
                case 2: words.2 = words.2 << 4 | nibble
                default: words.3 = words.3 << 4 | nibble
                }
                count += 1
            }
            storage = count == 64 ? .words(words.0, words.1, words.2, words.3) : .text(text)
        }

        /// The digest as the text it was made from.
        var text: String {
            switch storage {
            case let .text(text):
                return text
            case let .words(first, second, third, fourth):
                return String(unsafeUninitializedCapacity: 64) { buffer in
                    for (index, word) in [first, second, third, fourth].enumerated() {
                        for digit in 0..<16 {
                            let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * digit)) & 0x0F
                            buffer[index * 16 + digit] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                        }
                    }
                    return 64
                }
            }
        }
    }

    /// ``url``'s absolute text, without parsing it again.
    var urlText: String { address.text }
}
