/*
Abstract:
Where the label of a bar goes: inside it when it fits, just right of it when that space is free,
else nowhere; never cut short.
*/

import Foundation

/// The place of a bar's label. A label is never shortened into an unreadable sliver: it is drawn
/// whole inside its bar, whole just right of it, or left to the bar's tooltip.
enum LabelPlacement: Equatable {
    /// Inside the bar, in white, starting at `x`.
    case inside(x: Double)
    /// Right of the bar, in ink, starting at `x`.
    case outside(x: Double)
    /// Left out: the bar's tooltip has it.
    case omitted

    /// The approximate width of a character of the labels' type.
    static let characterWidth = 6.0
    /// The space between a label and the edge of its bar, or anything beside it.
    static let padding = 4.0

    /// The width a text takes in the labels' type.
    static func width(of text: String) -> Double {
        Double(text.count) * characterWidth
    }

    /// Places a label.
    /// - Parameters:
    ///   - text: The label.
    ///   - bar: The bar's extent.
    ///   - covered: Parts of the bar something is drawn over (an install's essential phase).
    ///   - obstacles: What else is in the row: other bars, symbols, and labels already placed.
    ///   - limit: The right end of the plot, which no label passes.
    ///   - leftLimit: Where a label may go left of its bar, for a symbol near the plot's right end; nil
    ///     keeps every label inside or right of its bar.
    /// - Returns: Inside, outside or omitted, and where.
    static func place(_ text: String, bar: ClosedRange<Double>, covered: [ClosedRange<Double>] = [],
                      obstacles: [ClosedRange<Double>], limit: Double, leftLimit: Double? = nil) -> LabelPlacement {
        let width = Self.width(of: text)
        let inBar = obstacles.filter { $0.overlaps(bar) }
        if let left = room(for: width + 2 * padding, in: bar, avoiding: covered + inBar) {
            return .inside(x: left + padding)
        }
        func isClear(_ extent: ClosedRange<Double>) -> Bool {
            obstacles.allSatisfy { $0.upperBound + padding < extent.lowerBound || extent.upperBound + padding < $0.lowerBound }
        }
        let right = (bar.upperBound + padding)...(bar.upperBound + padding + width)
        if right.upperBound <= limit, isClear(right) { return .outside(x: right.lowerBound) }
        let left = (bar.lowerBound - padding - width)...(bar.lowerBound - padding)
        if let leftLimit, left.lowerBound >= leftLimit, isClear(left) { return .outside(x: left.lowerBound) }
        return .omitted
    }

    /// The left end of the first stretch of `bar` at least `width` wide that no covered range overlaps.
    static func room(for width: Double, in bar: ClosedRange<Double>, avoiding covered: [ClosedRange<Double>]) -> Double? {
        var left = bar.lowerBound
        for range in covered.sorted(by: { $0.lowerBound < $1.lowerBound })
        where range.upperBound > left && range.lowerBound < bar.upperBound {
            if range.lowerBound - left >= width { return left }
            left = max(left, range.upperBound)
        }
        return bar.upperBound - left >= width ? left : nil
    }

    /// The extent the label takes, once placed.
    func extent(of text: String) -> ClosedRange<Double>? {
        switch self {
        case let .inside(x), let .outside(x): x...(x + Self.width(of: text))
        case .omitted: nil
        }
    }
}
