/*
Abstract:
The interpolations Apple's log messages accept, with their format, alignment and privacy options.
*/

import Foundation

extension OSLogInterpolation {
    /// Appends an integer, written as `format` says, in `align`'s column.
    /// - Parameters:
    ///   - number: The integer.
    ///   - format: Decimal (the default), hexadecimal or octal, with its options.
    ///   - align: The column to pad the number to.
    ///   - privacy: Whether the log shows the number.
    public mutating func appendInterpolation<T: FixedWidthInteger>(
        _ number: @autoclosure @escaping () -> T, format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(format.text(for: number(), align: align), privacy: privacy)
    }

    /// Appends a `Double`, written as `format` says (printf's `%f` by default), in `align`'s column.
    /// - Parameters:
    ///   - number: The number.
    ///   - format: The notation and its options.
    ///   - align: The column to pad the number to.
    ///   - privacy: Whether the log shows the number.
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Double, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(format.text(for: number(), align: align), privacy: privacy)
    }

    /// Appends a `Float`, as a `Double` is appended.
    /// - Parameters:
    ///   - number: The number.
    ///   - format: The notation and its options.
    ///   - align: The column to pad the number to.
    ///   - privacy: Whether the log shows the number.
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Float, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(format.text(for: Double(number()), align: align), privacy: privacy)
    }

    /// Appends a `CGFloat`, as a `Double` is appended.
    /// - Parameters:
    ///   - number: The number.
    ///   - format: The notation and its options.
    ///   - align: The column to pad the number to.
    ///   - privacy: Whether the log shows the number.
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> CGFloat, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(format.text(for: Double(number()), align: align), privacy: privacy)
    }

    /// Appends a Boolean as `true`/`false` or `YES`/`NO`.
    /// - Parameters:
    ///   - boolean: The value.
    ///   - format: ``OSLogBoolFormat/truth`` (the default) or ``OSLogBoolFormat/answer``.
    ///   - privacy: Whether the log shows the value.
    public mutating func appendInterpolation(
        _ boolean: @autoclosure @escaping () -> Bool, format: OSLogBoolFormat = .truth, privacy: OSLogPrivacy = .auto
    ) {
        append(format.text(for: boolean()), privacy: privacy)
    }

    /// Appends a string in `align`'s column.
    /// - Parameters:
    ///   - argumentString: The string.
    ///   - align: The column to pad the string to.
    ///   - privacy: Whether the log shows the string.
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {
        append(align.apply(to: argumentString()), privacy: privacy)
    }

    /// Appends a value's `description` in `align`'s column.
    /// - Parameters:
    ///   - value: The value.
    ///   - align: The column to pad the description to.
    ///   - privacy: Whether the log shows the value.
    public mutating func appendInterpolation<T: CustomStringConvertible>(
        _ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(align.apply(to: value().description), privacy: privacy)
    }

    /// Appends an object's `description`.
    /// - Parameters:
    ///   - argumentObject: The object.
    ///   - privacy: Whether the log shows the object.
    public mutating func appendInterpolation(
        _ argumentObject: @autoclosure @escaping () -> NSObject, privacy: OSLogPrivacy = .auto
    ) {
        append(argumentObject().description, privacy: privacy)
    }

    /// Appends an error's description.
    /// - Parameters:
    ///   - error: The error.
    ///   - privacy: Whether the log shows the error.
    public mutating func appendInterpolation(
        _ error: @autoclosure @escaping () -> any Error, privacy: OSLogPrivacy = .auto
    ) {
        append(String(describing: error()), privacy: privacy)
    }

    /// Appends a type's name in `align`'s column.
    /// - Parameters:
    ///   - value: The type.
    ///   - align: The column to pad the name to.
    ///   - privacy: Whether the log shows the name.
    public mutating func appendInterpolation(
        _ value: Any.Type, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(align.apply(to: String(describing: value)), privacy: privacy)
    }
}
