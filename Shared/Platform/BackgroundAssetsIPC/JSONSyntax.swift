/*
Abstract:
Where a JSON document stops being JSON, by line and column, for messages a person can act on in an editor.
*/

import Foundation

/// Finds the first mistake in a JSON document with the protocol's strict parser (RFC 8259).
///
/// Foundation's `JSONDecoder` on Linux says only "The given data was not valid JSON", with no
/// position; a settings file or a manifest with a stray comma, or bytes that are not UTF-8, deserves
/// the line and column of the mistake.
public enum JSONSyntax {
    /// The first mistake in `data`, such as "expected a key at line 3, column 1", or `nil` when it is strict JSON.
    public static func firstError(in data: Data) -> String? {
        do {
            _ = try WireJSONParser.parse(data)
            return nil
        } catch let error as WireJSONParser.SyntaxError {
            let (line, column) = position(ofByte: error.offset, in: data)
            return "\(error.reason) at line \(line), column \(column)"
        } catch {
            return "\(error)"
        }
    }

    /// The 1-based line and column of a byte.
    static func position(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let before = data.prefix(max(0, offset))
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - before.startIndex + 1 } ?? 0) + 1
        return (line, column)
    }
}
