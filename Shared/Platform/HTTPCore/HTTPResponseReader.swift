/*
Abstract:
Reads a response from a connection: the head up to its blank line, within a deadline, then the body in bounded pieces.
*/

/// Buffers a connection's bytes: first the response head, then body pieces handed out in place.
///
/// Every wait is bounded by the stall timeout and sliced to notice cancellation quickly. Used by
/// one thread at a time, like its connection.
public final class HTTPResponseReader {
    /// The longest response head accepted; real servers send a few hundred bytes.
    public static let maximumHeadLength = 64 * 1024

    private let connection: HTTPConnection
    private let isCancelled: () -> Bool
    private let stallMilliseconds: Int32
    /// The buffer's size when nothing says the response is small: large reads keep a fast
    /// download's system calls few.
    public static let defaultCapacity = 256 * 1024

    private let buffer: UnsafeMutableRawBufferPointer
    private var pending = 0..<0

    /// A reader of the responses that arrive on `connection`.
    /// - Parameters:
    ///   - connection: The connection the request was sent on.
    ///   - stallMilliseconds: How long the server may stay silent, and how long the whole head may take.
    ///   - capacity: The buffer's size in bytes: the most one read takes from the connection. Any
    ///     size reads any response; a head longer than the buffer arrives in several reads.
    ///   - isCancelled: Asked every 100 ms at most while waiting; once it is true, the read throws `.cancelled`.
    public init(
        connection: HTTPConnection, stallMilliseconds: Int32, capacity: Int = defaultCapacity,
        isCancelled: @escaping () -> Bool = { false }
    ) {
        self.connection = connection
        self.stallMilliseconds = stallMilliseconds
        self.isCancelled = isCancelled
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, capacity), alignment: 64)
    }

    /// The capacity for a response whose body is expected to be `length` bytes: the body and a
    /// head in one read when that is smaller than the default, so twenty small transfers at once
    /// do not each hold a quarter of a megabyte they never fill.
    public static func capacity(forBodyOf length: Int64?) -> Int {
        guard let length, length >= 0, length < Int64(defaultCapacity) else { return defaultCapacity }
        // Room for a head of a few hundred bytes to a few KiB, in whole pages.
        return min(defaultCapacity, (Int(length) + 8 * 1024 + 4095) & ~4095)
    }

    deinit { buffer.deallocate() }

    /// The largest piece ``receive(maximum:)`` can return.
    public var capacity: Int { buffer.count }

    /// Whether bytes were read past what was consumed: a connection with such bytes cannot carry
    /// another response.
    public var hasBufferedBytes: Bool { !pending.isEmpty }

    /// Reads and parses the response head, keeping any body bytes that came with it.
    ///
    /// Interim responses (`100 Continue`, `103 Early Hints`) are skipped. The whole head must
    /// arrive within the stall timeout: a server that drips it a byte at a time never stalls, yet
    /// would hold the caller for hours.
    /// - Throws: ``HTTPError``: `.connectionLost` when the server closes first, `.timedOut`,
    ///   `.malformedResponse` for a head that is too long or breaks HTTP/1.1's rules, `.cancelled`.
    public func readHead() throws(HTTPError) -> HTTPResponseHead {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(stallMilliseconds))
        while true {
            let head = try readOneHead(deadline: deadline)
            guard (100..<200).contains(head.status), head.status != 101 else { return head }
        }
    }

    private func readOneHead(deadline: ContinuousClock.Instant) throws(HTTPError) -> HTTPResponseHead {
        var head: [UInt8] = []
        while true {
            guard let piece = try receive(maximum: buffer.count) else {
                throw HTTPError(.connectionLost, "the server closed the connection before answering")
            }
            let searchStart = max(0, head.count - 3)
            head.append(contentsOf: piece)
            if let end = Self.endOfHead(in: head, from: searchStart) {
                // Give back the body bytes that arrived with the head.
                let extra = head.count - (end + 4)
                pending = (pending.lowerBound - extra)..<pending.lowerBound
                return try HTTPResponseHead(parsing: head[..<end])
            }
            guard head.count <= Self.maximumHeadLength else {
                throw HTTPError(.malformedResponse, "the response head is longer than \(Self.maximumHeadLength) bytes")
            }
            guard ContinuousClock.now < deadline else {
                throw HTTPError(.timedOut, "the response head took longer than \(Double(stallMilliseconds) / 1000) s to arrive")
            }
        }
    }

    /// Returns the next bytes, at most `maximum`, or `nil` when the server closed the connection.
    /// The bytes stay valid until the next call.
    /// - Throws: ``HTTPError``: `.timedOut` after the stall timeout of silence, `.cancelled`, or the connection's.
    public func receive(maximum: Int) throws(HTTPError) -> UnsafeRawBufferPointer? {
        if pending.isEmpty {
            var waited: Int32 = 0
            while true {
                if isCancelled() { throw HTTPError(.cancelled, "the transfer was stopped") }
                let slice = min(100, stallMilliseconds - waited)
                switch try connection.receive(into: buffer, timeoutMilliseconds: slice) {
                case let .bytes(count):
                    pending = 0..<count
                case .closed:
                    return nil
                case .timedOut:
                    waited += slice
                    guard waited < stallMilliseconds else {
                        throw HTTPError(.timedOut, "no data arrived for \(Double(stallMilliseconds) / 1000) s")
                    }
                    continue
                }
                break
            }
        }
        let count = min(maximum, pending.count)
        let piece = UnsafeRawBufferPointer(rebasing: buffer[pending.lowerBound..<pending.lowerBound + count])
        pending = (pending.lowerBound + count)..<pending.upperBound
        return piece
    }

    private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in start...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
