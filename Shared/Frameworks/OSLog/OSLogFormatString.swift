/*
Abstract:
A printf-style os_log format string with Apple's {public}/{private} decorations, rendered with its C arguments.
*/

import Foundation

/// An `os_log` format string: literal text and printf conversions, each optionally decorated with
/// Apple's `{public}`, `{private}`, `{sensitive}` or a value type such as `{bool}`.
struct OSLogFormatString {
    let format: String

    init(_ format: String) {
        self.format = format
    }

    /// The message the format makes with these arguments, private values redacted as
    /// ``OSLogPrivacy`` says.
    /// - Parameters:
    ///   - arguments: The values, in the order the conversions take them.
    ///   - revealingPrivateData: Whether `{private}` values are shown.
    func rendering(_ arguments: [any CVarArg], revealingPrivateData: Bool = OSLogPrivacy.revealsPrivateData) -> String {
        var output = ""
        var remaining = arguments[...]
        var characters = format[...]
        while let percent = characters.firstIndex(of: "%") {
            output += characters[..<percent]
            characters = characters[characters.index(after: percent)...]
            guard var conversion = Conversion(parsing: &characters) else {
                // A lone % at the end, or one before a character printf does not know: written as it stands.
                output += "%"
                continue
            }
            if conversion.character == "%" {
                output += "%"
                continue
            }
            if conversion.width == .fromArgument { conversion.width = .fixed(Self.integer(remaining.popFirst()) ?? 0) }
            if conversion.precision == .fromArgument {
                conversion.precision = .fixed(Self.integer(remaining.popFirst()) ?? 0)
            }
            guard let argument = remaining.popFirst() else {
                output += "<missing argument for %\(conversion.character)>"
                continue
            }
            let text = conversion.text(for: argument)
            output += conversion.privacy.render(text, revealingPrivateData: revealingPrivateData)
        }
        output += characters
        return output
    }

    /// A `*` width's or precision's value.
    private static func integer(_ argument: (any CVarArg)?) -> Int? {
        switch argument {
        case let value as any BinaryInteger: Int(exactly: value)
        default: nil
        }
    }
}

extension OSLogFormatString {
    /// One conversion: `%{public}-8.3ld` is privacy public, flags `-`, width 8, precision 3, `d`.
    struct Conversion {
        enum Number: Equatable {
            case none, fixed(Int), fromArgument
        }

        var privacy = OSLogPrivacy.auto
        /// Apple's value type from the decoration, such as `bool` or `errno`.
        var valueType: String?
        var flags = ""
        var width = Number.none
        var precision = Number.none
        var character: Character = "%"

        /// The largest width or precision honoured, as the interpolations cap theirs.
        static let largestNumber = 4_096

        /// Reads a conversion after its `%`, advancing past it; `nil` when what follows is not one.
        init?(parsing text: inout Substring) {
            var rest = text
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                let words = rest[rest.index(after: rest.startIndex)..<close].split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                for word in words {
                    switch word {
                    case "public": privacy = .public
                    case "private": privacy = .private
                    case "sensitive": privacy = .sensitive
                    default: valueType = word
                    }
                }
                rest = rest[rest.index(after: close)...]
            }
            while let flag = rest.first, "-+ #0'".contains(flag) {
                flags.append(flag)
                rest = rest.dropFirst()
            }
            width = Self.number(in: &rest)
            if rest.first == "." {
                rest = rest.dropFirst()
                precision = Self.number(in: &rest)
                if precision == .none { precision = .fixed(0) }
            }
            while let modifier = rest.first, "hlqLzjt".contains(modifier) { rest = rest.dropFirst() }
            guard let conversion = rest.first, "diouxXcsSfFeEgGaAp@%".contains(conversion) else { return nil }
            character = conversion
            text = rest.dropFirst()
        }

        private static func number(in text: inout Substring) -> Number {
            if text.first == "*" {
                text = text.dropFirst()
                return .fromArgument
            }
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return .none }
            text = text.dropFirst(digits.count)
            return .fixed(min(Int(digits) ?? largestNumber, largestNumber))
        }

        /// The argument written as this conversion says, or a placeholder when it is of the wrong kind.
        func text(for argument: any CVarArg) -> String {
            switch (valueType?.lowercased(), character) {
            case ("bool", _):
                guard let value = argument as? any BinaryInteger else { return mismatch(argument) }
                let truth = Int64(truncatingIfNeeded: value) != 0
                return valueType == "BOOL" ? (truth ? "YES" : "NO") : (truth ? "true" : "false")
            case ("errno", _):
                guard let value = (argument as? any BinaryInteger).flatMap({ Int32(exactly: $0) }) else {
                    return mismatch(argument)
                }
                return "[\(value): \(String(cString: strerror(value)))]"
            default:
                break
            }
            switch character {
            case "d", "i":
                guard let value = argument as? any BinaryInteger else { return mismatch(argument) }
                return String(format: spec("lld"), Int64(truncatingIfNeeded: value))
            case "o", "u", "x", "X":
                guard let value = argument as? any BinaryInteger else { return mismatch(argument) }
                return String(format: spec("ll\(character)"), UInt64(truncatingIfNeeded: value))
            case "c":
                guard let value = (argument as? any BinaryInteger).flatMap({ UInt32(exactly: $0) }),
                      let scalar = Unicode.Scalar(value) else { return mismatch(argument) }
                return padded(String(Character(scalar)))
            case "f", "F", "e", "E", "g", "G", "a", "A":
                guard let value = Self.double(argument) else { return mismatch(argument) }
                return String(format: spec(String(character)), value)
            case "p":
                return padded(String(describing: argument))
            default:
                // %s, %S and %@: any value, by its description.
                var text = String(describing: argument)
                if case let .fixed(limit) = precision { text = String(text.prefix(limit)) }
                return padded(text)
            }
        }

        private static func double(_ argument: any CVarArg) -> Double? {
            switch argument {
            case let value as Double: value
            case let value as Float: Double(value)
            case let value as CGFloat: Double(value)
            default: nil
            }
        }

        /// The printf conversion with this one's flags, width and precision.
        private func spec(_ conversion: String) -> String {
            var spec = "%" + flags.filter { $0 != "'" }
            if case let .fixed(width) = width { spec += String(width) }
            if case let .fixed(precision) = precision { spec += ".\(precision)" }
            return spec + conversion
        }

        /// Text padded to the width, on the left unless the `-` flag says right.
        private func padded(_ text: String) -> String {
            guard case let .fixed(width) = width, text.count < width else { return text }
            let padding = String(repeating: " ", count: width - text.count)
            return flags.contains("-") ? text + padding : padding + text
        }

        private func mismatch(_ argument: any CVarArg) -> String {
            "<%\(valueType.map { "{\($0)}" } ?? "")\(character) given \(type(of: argument)) \(String(describing: argument))>"
        }
    }
}
