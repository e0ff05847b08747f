/*
Abstract:
Spreads the marks of one lane so that none hides another: a promotion and a finish a moment apart both stay visible.
*/

import Foundation

/// Lays out the symbols of a lane left to right. Each mark keeps the x of its time unless the mark
/// before it would cover it; then it moves right just past that one. Time order is kept, and the
/// tooltip of a moved mark still gives its exact time.
enum MarkLayout {
    /// A symbol to place: where its time puts its middle, and half its drawn width.
    struct Item: Equatable {
        var x: Double
        var halfWidth: Double
    }

    /// The clear space kept between two symbols.
    static let gap = 1.5

    /// The middle of each item, in the order given, with no two overlapping.
    /// - Parameter items: The symbols, in any order.
    /// - Returns: Each one's x, at or right of where its time put it.
    static func spread(_ items: [Item]) -> [Double] {
        var placed = items.map(\.x)
        var right = -Double.infinity
        // A stable order: two marks at one time keep the order the trace gave them.
        for index in items.indices.sorted(by: { (items[$0].x, $0) < (items[$1].x, $1) }) {
            let item = items[index]
            let x = max(item.x, right + gap + item.halfWidth)
            placed[index] = x
            right = x + item.halfWidth
        }
        return placed
    }

    /// Where a lane mark's symbol sits relative to its time, and half its width: an ending is drawn
    /// just right of the run it ends, the rest centred on their time.
    static func item(for mark: DownloadLane.Mark, at x: Double) -> Item {
        switch mark {
        case .queued, .restarted: Item(x: x, halfWidth: 1)
        case .promoted, .challenge: Item(x: x, halfWidth: 5.5)
        case .retry: Item(x: x, halfWidth: 4.5)
        case .finished: Item(x: x + 7.5, halfWidth: 5.5)
        case .failed, .cancelled: Item(x: x + 6.5, halfWidth: 5.5)
        }
    }
}
