/*
Abstract:
Reads JSON that people write by hand: comments and trailing commas, as in the packaging manifest's template.
*/

/// Turns hand-written JSON into strict JSON: `//` and `/* */` comments and commas before `]` or `}`
/// become spaces, everything inside strings is kept. The template `ba-package template` writes is
/// commented, as Apple's is, so a developer can edit it in place.
enum CommentedJSON {
    /// The strict JSON text of `bytes`; the length is unchanged, so error offsets still point at the input.
    static func strict(_ bytes: [UInt8]) -> [UInt8] {
        var output = bytes
        var index = 0
        var inString = false
        var lastSignificant: Int?
        while index < output.count {
            let byte = output[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "/"), index + 1 < output.count, output[index + 1] == UInt8(ascii: "/") {
                while index < output.count, output[index] != UInt8(ascii: "\n") { output[index] = 0x20; index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/"), index + 1 < output.count, output[index + 1] == UInt8(ascii: "*") {
                var end = index + 2
                while end + 1 < output.count, !(output[end] == UInt8(ascii: "*") && output[end + 1] == UInt8(ascii: "/")) { end += 1 }
                let last = min(end + 1, output.count - 1)
                for position in index...last where output[position] != UInt8(ascii: "\n") { output[position] = 0x20 }
                index = last + 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                lastSignificant = index
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma = lastSignificant, output[comma] == UInt8(ascii: ",") { output[comma] = 0x20 }
                lastSignificant = index
            case 0x20, 0x09, 0x0A, 0x0D:
                break
            default:
                lastSignificant = index
            }
            index += 1
        }
        return output
    }
}
