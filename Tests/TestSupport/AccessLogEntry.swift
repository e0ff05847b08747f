/*
Abstract:
One line of asset-server's access log, and reading a whole log back, for tests that count served bytes.
*/

import Foundation

/// One response as `asset-server --access-log FILE` records it.
public struct AccessLogEntry: Decodable, Sendable, Equatable {
    /// The request method.
    public var method: String
    /// The request path.
    public var path: String
    /// The `Range` header the request sent, if any.
    public var range: String?
    /// The response status.
    public var status: Int
    /// The body bytes that actually reached the socket.
    public var bytes: Int64

    /// Creates an entry.
    public init(method: String, path: String, range: String?, status: Int, bytes: Int64) {
        self.method = method
        self.path = path
        self.range = range
        self.status = status
        self.bytes = bytes
    }

    /// Reads every line of an access log; a missing log reads as empty.
    /// - Parameter url: The log file.
    /// - Returns: The entries, in file order.
    /// - Throws: A decoding error when a line is not an entry.
    public static func entries(in url: URL) throws -> [AccessLogEntry] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(AccessLogEntry.self, from: Data($0.utf8)) }
    }
}
