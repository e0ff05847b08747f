/*
Abstract:
How an interpolated floating-point number is written: printf's %f, %e, %g or %a, with Apple's options.
*/

import Foundation

/// How a floating-point number interpolated into a log message is written, as in Apple's
/// `OSLogFloatFormatting`.
///
/// The default for `Double`, `Float` and `CGFloat` is ``fixed``, printf's `%f`: six digits after the
/// radix point, so `"\(0.5)"` logs `0.500000`, as on Apple platforms.
public struct OSLogFloatFormatting: Sendable {
    enum Notation: Sendable {
        case fixed, exponential, hybrid, hex
    }

    let notation: Notation
    let explicitPositiveSign: Bool
    let uppercase: Bool
    let precision: Int?

    private init(_ notation: Notation, _ explicitPositiveSign: Bool, _ uppercase: Bool, precision: Int? = nil) {
        self.notation = notation
        self.explicitPositiveSign = explicitPositiveSign
        self.uppercase = uppercase
        self.precision = precision
    }

    /// printf's `%f`: every digit before the radix point and six after it.
    public static var fixed: OSLogFloatFormatting { .fixed() }

    /// printf's `%f` with a sign and case.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - uppercase: Whether to write `INF` and `NAN` in uppercase.
    /// - Returns: The format.
    public static func fixed(
        explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(.fixed, explicitPositiveSign, uppercase)
    }

    /// printf's `%f` with `precision` digits after the radix point (none, and no point, for 0).
    /// - Parameters:
    ///   - precision: The number of digits after the radix point.
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - uppercase: Whether to write `INF` and `NAN` in uppercase.
    /// - Returns: The format.
    public static func fixed(
        precision: @escaping @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(.fixed, explicitPositiveSign, uppercase, precision: precision())
    }

    /// printf's `%e`: `d.dddddde±dd`.
    public static var exponential: OSLogFloatFormatting { .exponential() }

    /// printf's `%e` with a sign and case.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - uppercase: Whether to write `E`, `INF` and `NAN` in uppercase.
    /// - Returns: The format.
    public static func exponential(
        explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(.exponential, explicitPositiveSign, uppercase)
    }

    /// printf's `%e` with `precision` digits after the radix point.
    /// - Parameters:
    ///   - precision: The number of digits after the radix point.
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - uppercase: Whether to write `E`, `INF` and `NAN` in uppercase.
    /// - Returns: The format.
    public static func exponential(
        precision: @escaping @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(.exponential, explicitPositiveSign, uppercase, precision: precision())
    }

    /// printf's `%g`: like ``fixed`` near 1, like ``exponential`` for very large or small numbers.
    public static var hybrid: OSLogFloatFormatting { .hybrid() }

    /// printf's `%g` with a sign and case.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - uppercase: Whether to write `E`, `INF` and `NAN` in uppercase.
    /// - Returns: The format.
    public static func hybrid(
        explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(.hybrid, explicitPositiveSign, uppercase)
    }

    /// printf's `%g` with `precision` significant digits.
    /// - Parameters:
    ///   - precision: The number of significant digits.
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - uppercase: Whether to write `E`, `INF` and `NAN` in uppercase.
    /// - Returns: The format.
    public static func hybrid(
        precision: @escaping @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(.hybrid, explicitPositiveSign, uppercase, precision: precision())
    }

    /// printf's `%a`: hexadecimal, `0x1.8p+0` for 1.5.
    public static var hex: OSLogFloatFormatting { .hex() }

    /// printf's `%a` with a sign and case.
    /// - Parameters:
    ///   - explicitPositiveSign: Whether to write `+` before non-negative numbers.
    ///   - uppercase: Whether to write `0X`, the digits and `P` in uppercase.
    /// - Returns: The format.
    public static func hex(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(.hex, explicitPositiveSign, uppercase)
    }

    /// `value` as printf writes it for this format, within `align`'s column.
    func text(for value: Double, align: OSLogStringAlignment) -> String {
        var specification = "%"
        if explicitPositiveSign { specification += "+" }
        if align.padsOnTheRight { specification += "-" }
        if let width = align.width { specification += String(width) }
        if let precision, notation != .hex {
            specification += "." + String(min(max(precision, 0), OSLogFormatLimits.maximumWidth))
        }
        specification += conversion
        return Self.printf(specification, value)
    }

    private var conversion: String {
        switch notation {
        case .fixed: uppercase ? "F" : "f"
        case .exponential: uppercase ? "E" : "e"
        case .hybrid: uppercase ? "G" : "g"
        case .hex: uppercase ? "A" : "a"
        }
    }

    /// The C library's rendering of one double, measured first so no digit is cut off.
    private static func printf(_ specification: String, _ value: Double) -> String {
        let length = withVaList([value]) { vsnprintf(nil, 0, specification, $0) }
        guard length >= 0 else { return String(value) }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        _ = buffer.withUnsafeMutableBufferPointer { bytes in
            withVaList([value]) { vsnprintf(bytes.baseAddress, bytes.count, specification, $0) }
        }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
