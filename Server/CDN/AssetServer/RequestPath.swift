/*
Abstract:
Turns a request target into a safe, percent-decoded path, refusing anything that could climb out of the catalog.
*/

/// Decodes request targets into catalog-relative paths.
enum RequestPath {
    /// Why a target cannot name a file in the catalog; each is answered with 400.
    enum Failure: Error, Sendable, Equatable {
        case notOriginForm
        case badPercentEncoding
        case forbiddenCharacter
        case dotDotSegment
        case notUTF8
    }

    /// The decoded, normalised path of `target`, starting with `/`, with the query and fragment removed.
    ///
    /// Absolute-form targets (`http://host/path`) are accepted as RFC 9112 section 3.2.2 requires. Decoding
    /// happens before the checks, so `%2e%2e`, `%2f` and `%00` cannot smuggle `..`, separators or NUL past them.
    /// - Throws: ``Failure`` for targets that must be refused.
    static func decode(_ target: String) throws(Failure) -> String {
        var target = target
        // Every request goes through here, so it works on the target's bytes in one buffer, in place.
        let result = target.withUTF8 { utf8 in Result { () throws(Failure) in try decode(utf8) } }
        return try result.get()
    }

    private static func decode(_ target: UnsafeBufferPointer<UInt8>) throws(Failure) -> String {
        let end = target.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? target.count
        var start = 0
        if let authority = authorityStart(of: target[0..<end]) {
            start = target[authority..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
        }
        let isBareAuthority = start == end && start > 0
        guard isBareAuthority || (start < end && target[start] == UInt8(ascii: "/")) else { throw .notOriginForm }
        if isBareAuthority { return "/" }

        var bytes = try percentDecoded(target[start..<end])
        guard !bytes.contains(0), !bytes.contains(UInt8(ascii: "\\")) else { throw .forbiddenCharacter }
        let containsDotDot = normalize(&bytes)
        // An ASCII path is valid UTF-8 as it is; only others need the (generic, slower) validation.
        let isASCII = bytes.allSatisfy { $0 < 0x80 }
        guard let path = isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        else { throw .notUTF8 }
        guard !containsDotDot else { throw .dotDotSegment }
        return path
    }

    /// Where the authority of an absolute-form target (`http://` or `https://`, any case) begins.
    private static func authorityStart(of target: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        for scheme in ["http://", "https://"] where target.count >= scheme.utf8.count {
            if zip(target, scheme.utf8).allSatisfy({ $0.asciiLowercased == $1 }) {
                return target.startIndex + scheme.utf8.count
            }
        }
        return nil
    }

    private static func percentDecoded(_ raw: Slice<UnsafeBufferPointer<UInt8>>) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard index + 1 < raw.endIndex, let high = hexValue(raw[index]), let low = hexValue(raw[index + 1]) else {
                throw .badPercentEncoding
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Rewrites `bytes` (a decoded path starting with `/`) to one spelling per file, in place: empty and `.`
    /// segments go, so `//a`, `/./a` and `/a` are the same path and rules keyed by path (Basic auth on
    /// /protected/, --fail, --corrupt) cannot be sidestepped by respelling it. A trailing slash stays.
    /// - Returns: Whether a `..` segment was found (kept, for the caller to refuse).
    private static func normalize(_ bytes: inout [UInt8]) -> Bool {
        let endsWithSlash = bytes.last == UInt8(ascii: "/")
        var containsDotDot = false
        var written = 0
        var segmentStart = 0
        // The output is never longer than what has been read, so it overwrites bytes already read.
        while segmentStart < bytes.count {
            let segmentEnd = bytes[segmentStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
            let length = segmentEnd - segmentStart
            let isDot = length == 1 && bytes[segmentStart] == UInt8(ascii: ".")
            if length > 0, !isDot {
                if length == 2, bytes[segmentStart] == UInt8(ascii: "."), bytes[segmentStart + 1] == UInt8(ascii: ".") {
                    containsDotDot = true
                }
                bytes[written] = UInt8(ascii: "/")
                written += 1
                for offset in 0..<length { bytes[written + offset] = bytes[segmentStart + offset] }
                written += length
            }
            segmentStart = segmentEnd + 1
        }
        if written == 0 || endsWithSlash {
            bytes[written] = UInt8(ascii: "/")
            written += 1
        }
        bytes.removeSubrange(written...)
        return containsDotDot
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
