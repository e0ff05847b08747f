/*
Abstract:
The scheme and host of an http or https URL in its plainest form, read without URLComponents.
*/

/// An `http` or `https` URL whose every byte is one RFC 3986 allows where it stands, with a host of
/// letters, digits, dots and hyphens (no `xn--` label, which `URLComponents` decodes to Unicode) of
/// at most 255 bytes, an optional port of at most five digits, no user, and 4 KiB at most in all:
/// `https://cdn.example.com:8443/a/b.mp4?x=1#y`.
///
/// Every download is checked by the framework and again by the service, and through
/// `URLComponents` the check took a tenth of a foreground start: the host's getter decodes an
/// international name through ICU. A URL in this form parses the same way there, so its scheme and
/// host are read here in one pass over its bytes; anything else (`nil`) goes to `URLComponents`,
/// which has the last word and the error messages. `PlainWebURLTests` checks both agree.
package struct PlainWebURL {
    /// The scheme in lower case, `https` or `http`, whatever case the URL wrote it in.
    package let scheme: String
    /// The host as written.
    package let host: String

    package init?(_ string: String) {
        var string = string
        let read = string.withUTF8 { bytes -> (isHTTPS: Bool, host: String)? in
            guard let parts = Self.parts(of: bytes) else { return nil }
            return (parts.isHTTPS, String(decoding: UnsafeBufferPointer(rebasing: bytes[parts.host]), as: UTF8.self))
        }
        guard let read else { return nil }
        scheme = read.isHTTPS ? "https" : "http"
        host = read.host
    }

    /// The longest URL read here, in bytes.
    static let maximumLength = 4096
    /// The longest host read here, in bytes: a DNS name's longest, with room to spare.
    static let maximumHostLength = 255

    /// The scheme and the host's byte range, or `nil` when `bytes` is not a plain URL.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (isHTTPS: Bool, host: Range<Int>)? {
        // Long ones are rare and left to URLComponents, which gives no host past 2,048 bytes.
        guard bytes.count <= maximumLength, let isHTTPS = scheme(of: bytes) else { return nil }
        var index = isHTTPS ? 8 : 7
        let hostStart = index
        while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
        let host = hostStart..<index
        guard !host.isEmpty, host.count <= maximumHostLength, !hasPunycode(UnsafeBufferPointer(rebasing: bytes[host]))
        else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            var port = 0
            let digitsStart = index
            while index < bytes.count, isDigit(bytes[index]), index - digitsStart < 5 {
                port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart, port <= 65_535 else { return nil }
        }
        // The authority ends here: what follows is the path, the query and the fragment, or nothing.
        guard index == bytes.count || [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[index]),
              isPlainRest(UnsafeBufferPointer(rebasing: bytes[index...])) else { return nil }
        return (isHTTPS, host)
    }

    /// Whether `bytes` start with `https://` (`true`) or `http://` (`false`), in any case; `nil` otherwise.
    private static func scheme(of bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        // Asked only of the first five bytes, once there are seven.
        func lowercased(_ offset: Int) -> UInt8 {
            isLetter(bytes[offset]) ? bytes[offset] | 0x20 : bytes[offset]
        }
        guard bytes.count >= 7, lowercased(0) == UInt8(ascii: "h"), lowercased(1) == UInt8(ascii: "t"),
              lowercased(2) == UInt8(ascii: "t"), lowercased(3) == UInt8(ascii: "p") else { return nil }
        let isHTTPS = lowercased(4) == UInt8(ascii: "s")
        let colon = isHTTPS ? 5 : 4
        guard bytes.count >= colon + 3, bytes[colon] == UInt8(ascii: ":"), bytes[colon + 1] == UInt8(ascii: "/"),
              bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
        return isHTTPS
    }

    /// The path, query and fragment: RFC 3986's `pchar`, `/` and `?`, percent escapes with two hex
    /// digits, and at most one `#`.
    private static func isPlainRest(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var sawFragment = false
        while index < rest.count {
            let byte = rest[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < rest.count, isHexDigit(rest[index + 1]), isHexDigit(rest[index + 2]) else { return false }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !sawFragment else { return false }
                sawFragment = true
            } else if !isPathByte(byte) {
                return false
            }
            index += 1
        }
        return true
    }

    /// Whether the host has an international label (`xn--`, in any case) anywhere.
    private static func hasPunycode(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        guard host.count >= 4 else { return false }
        for start in 0...(host.count - 4)
        where host[start] | 0x20 == UInt8(ascii: "x") && host[start + 1] | 0x20 == UInt8(ascii: "n")
            && host[start + 2] == UInt8(ascii: "-") && host[start + 3] == UInt8(ascii: "-") {
            return true
        }
        return false
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    /// Unreserved characters, sub-delimiters, `:`, `@`, `/` and `?`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"),
             UInt8(ascii: "?"):
            true
        default:
            false
        }
    }
}
