/*
Abstract:
How an interpolated integer is written: decimal, hexadecimal or octal, with Apple's options.
*/

/// How an integer interpolated into a log message is written, as in Apple's `OSLogIntegerFormatting`.
///
/// ```swift
/// logger.debug("Flags \(flags, format: .hex(includePrefix: true, minDigits: 4))")  // Flags 0x002a
/// ```
/// The output is printf's, as Apple's log renders it: `minDigits` pads the digits with zeros, the
/// sign of `explicitPositiveSign` comes before them, and a `0x` or `0o` prefix stands outside any
/// alignment column.
/// - Note: Apple's documentation reserves `hex` and `octal` for unsigned integers. A negative signed
///   integer is written as its two's-complement bit pattern here, as printf's `%x` writes it, rather
///   than stopping the process.
public struct OSLogIntegerFormatting: Sendable {
    let radix: Int
    let explicitPositiveSign: Bool
    let includePrefix: Bool
    let uppercase: Bool
    let minDigits: Int?

    private init(
        radix: Int, explicitPositiveSign: Bool, includePrefix: Bool = false, uppercase: Bool = false,
        minDigits: Int? = nil
    ) {
        self.radix = radix
        self.explicitPositiveSign = explicitPositiveSign
        self.includePrefix = includePrefix
        self.uppercase = uppercase
        self.minDigits = minDigits
    }

    /// Decimal, the default for integers.
    public static var decimal: OSLogIntegerFormatting { .decimal() }

    /// Decimal, with a `+` before non-negative numbers if asked.
    /// - Parameter explicitPositiveSign: Whether to write `+` before non-negative numbers.
    /// - Returns: The format.
    public static func decimal(explicitPositiveSign: Bool = false) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 10, explicitPositiveSign: explicitPositiveSign)
    }

    /// Decimal with at least `minDigits` digits, padded with leading zeros.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - minDigits: The minimum number of digits.
    /// - Returns: The format.
    public static func decimal(
        explicitPositiveSign: Bool = false, minDigits: @escaping @autoclosure () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 10, explicitPositiveSign: explicitPositiveSign, minDigits: minDigits())
    }

    /// Hexadecimal in lowercase, without a prefix.
    public static var hex: OSLogIntegerFormatting { .hex() }

    /// Hexadecimal.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before the number.
    ///   - includePrefix: Whether to write `0x` before the digits.
    ///   - uppercase: Whether to write the digits above 9 in uppercase.
    /// - Returns: The format.
    public static func hex(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase)
    }

    /// Hexadecimal with at least `minDigits` digits.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before the number.
    ///   - includePrefix: Whether to write `0x` before the digits.
    ///   - uppercase: Whether to write the digits above 9 in uppercase.
    ///   - minDigits: The minimum number of digits.
    /// - Returns: The format.
    public static func hex(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
        minDigits: @escaping @autoclosure () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: minDigits())
    }

    /// Octal, without a prefix.
    public static var octal: OSLogIntegerFormatting { .octal() }

    /// Octal.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before the number.
    ///   - includePrefix: Whether to write `0o` before the digits.
    ///   - uppercase: Accepted as Apple's is; octal digits have no case.
    /// - Returns: The format.
    public static func octal(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase)
    }

    /// Octal with at least `minDigits` digits.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before the number.
    ///   - includePrefix: Whether to write `0o` before the digits.
    ///   - uppercase: Accepted as Apple's is; octal digits have no case.
    ///   - minDigits: The minimum number of digits.
    /// - Returns: The format.
    public static func octal(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
        minDigits: @escaping @autoclosure () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: minDigits())
    }

    /// `value` as printf writes it for this format, within `align`'s column.
    func text<Value: FixedWidthInteger>(for value: Value, align: OSLogStringAlignment) -> String {
        // Decimal keeps the sign; hexadecimal and octal write the bits, as %x and %o do.
        let isNegativeDecimal = radix == 10 && value < 0
        let magnitude: String =
            radix == 10
            ? String(value.magnitude, radix: 10)
            : String(Value.Magnitude(truncatingIfNeeded: value), radix: radix, uppercase: uppercase)
        let digitCount = min(max(minDigits ?? 1, 1), OSLogFormatLimits.maximumWidth)
        let digits = String(repeating: "0", count: max(digitCount - magnitude.count, 0)) + magnitude
        // printf's + flag applies to signed conversions only; Apple writes a literal + before an
        // unsigned or non-decimal number, outside its column.
        let signInside = Value.isSigned && radix == 10
        var number = digits
        if isNegativeDecimal {
            number = "-" + number
        } else if explicitPositiveSign && signInside {
            number = "+" + number
        }
        let outside = (explicitPositiveSign && !signInside ? "+" : "") + prefix
        return outside + align.apply(to: number)
    }

    private var prefix: String {
        guard includePrefix else { return "" }
        switch radix {
        case 8: return "0o"
        case 16: return "0x"
        default: return ""
        }
    }
}
