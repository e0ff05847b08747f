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
        var raw = Substring(target)
        if let cut = raw.firstIndex(where: { $0 == "?" || $0 == "#" }) { raw = raw[..<cut] }
        let lowered = raw.prefix(8).lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let afterScheme = raw[raw.index(raw.firstIndex(of: ":")!, offsetBy: 3)...]
            raw = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        guard raw.hasPrefix("/") else { throw .notOriginForm }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .badPercentEncoding
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0), !bytes.contains(UInt8(ascii: "\\")) else { throw .forbiddenCharacter }
        guard let path = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        let segments = path.split(separator: "/").filter { $0 != "." }
        guard !segments.contains("..") else { throw .dotDotSegment }
        // One spelling per file: `//a`, `/./a` and `/a` are the same path, so rules keyed by path
        // (Basic auth on /protected/, --fail, --corrupt) cannot be sidestepped by respelling it.
        let trailingSlash = path.hasSuffix("/") && !segments.isEmpty
        return "/" + segments.joined(separator: "/") + (trailingSlash ? "/" : "")
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
