/*
Abstract:
The alignment of an interpolated value in its column, with Apple's names.
*/

/// How an interpolated value is padded to a minimum width, as in Apple's `OSLogStringAlignment`.
///
/// ```swift
/// logger.info("\(session.id, align: .left(columns: 16))\(bytes, align: .right(columns: 10)) bytes")
/// ```
/// The value is padded with spaces to at least `columns` characters and never truncated.
public struct OSLogStringAlignment: Sendable {
    let columns: Int?
    let padsOnTheRight: Bool

    /// No padding.
    public static var none: OSLogStringAlignment { OSLogStringAlignment(columns: nil, padsOnTheRight: false) }

    /// Right-aligns the value in at least `columns` characters.
    /// - Parameter columns: The minimum number of characters to show.
    /// - Returns: The alignment.
    public static func right(columns: @escaping @autoclosure () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment(columns: columns(), padsOnTheRight: false)
    }

    /// Left-aligns the value in at least `columns` characters.
    /// - Parameter columns: The minimum number of characters to show.
    /// - Returns: The alignment.
    public static func left(columns: @escaping @autoclosure () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment(columns: columns(), padsOnTheRight: true)
    }

    /// The width printf would use: the columns, within what a log line can hold.
    var width: Int? { columns.map { min(max($0, 0), OSLogFormatLimits.maximumWidth) } }

    /// `text`, padded with spaces to the width.
    func apply(to text: String) -> String {
        guard let width, text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return padsOnTheRight ? text + padding : padding + text
    }
}

/// Bounds on the widths and precisions a message may ask for, so a mistaken `columns: 1_000_000`
/// writes a long line instead of exhausting memory.
enum OSLogFormatLimits {
    static let maximumWidth = 4_096
}
