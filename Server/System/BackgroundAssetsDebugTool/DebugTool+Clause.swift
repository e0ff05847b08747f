/*
Abstract:
An error's message as a clause inside one of the tool's sentences, without the full stop that would double ours.
*/

import Foundation

extension DebugTool {
    /// An error's message to quote inside a sentence: ``describe(_:)`` without its final full stop,
    /// so "Could not read FILE: \(clause). Do this." never ends a clause with two.
    /// - Parameter error: Any error, often one of Foundation's, whose sentences end with a full stop.
    /// - Returns: The message, trimmed, without a final period (an ellipsis is kept).
    static func clause(_ error: any Error) -> String {
        var text = describe(error).trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix("."), !text.hasSuffix("...") { text.removeLast() }
        return text
    }
}
