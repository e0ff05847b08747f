/*
Abstract:
Reading a received response head strictly: its status line, its fields, and the body length it declares.
*/

import Foundation
import HTTPCore

extension HTTPResponseHead {
    /// The declared body length, `nil` when absent; throws when malformed or contradictory,
    /// because a response whose length is in doubt cannot be trusted to be complete.
    func contentLength() throws(TransferError) -> Int64? {
        let values = values("Content-Length")
        guard let first = values.first else { return nil }
        guard values.allSatisfy({ $0 == first }), let length = Int64(first), length >= 0,
              first.allSatisfy(\.isNumber) else {
            throw TransferError(.remote, .malformedResponse, "Content-Length \"\(values.joined(separator: ", "))\" is not one non-negative number")
        }
        return length
    }

    /// Whether the body uses chunked transfer coding.
    var isChunked: Bool {
        values("Transfer-Encoding").joined(separator: ",").split(separator: ",")
            .last.map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "chunked" } ?? false
    }

    /// Parses a response head (everything before the blank line, without it).
    /// - Throws: ``TransferError`` naming what was malformed.
    init(parsing bytes: some Collection<UInt8>) throws(TransferError) {
        self.init(status: 0)
        guard let text = String(validating: Array(bytes), as: UTF8.self) ?? String(bytes: Array(bytes), encoding: .isoLatin1) else {
            throw TransferError(.remote, .malformedResponse, "the response head is not text")
        }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { throw TransferError(.remote, .malformedResponse, "the response is empty") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
              let status = Int(parts[1]), (100...599).contains(status) else {
            throw TransferError(.remote, .malformedResponse, "the status line \"\(statusLine.prefix(100))\" is not HTTP/1.x")
        }
        self.status = status
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }) else {
                throw TransferError(.remote, .malformedResponse, "the header line \"\(line.prefix(100))\" is malformed")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            fields.append((String(line[..<colon]), value))
        }
    }
}
