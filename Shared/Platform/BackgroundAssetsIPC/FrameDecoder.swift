/*
Abstract:
Reassembles frames from a byte stream that arrives in chunks of any size.
*/

/// Collects bytes from a stream socket and hands out whole payloads.
///
/// Feed it whatever `read(2)` returned with ``append(_:)``, then call ``nextFrame()`` until it
/// returns `nil`. A stream has no way to resynchronise after a bad length, so the first error is
/// final: every later call throws it again and the caller closes the connection.
public struct FrameDecoder: Sendable {
    /// The largest payload accepted; a peer may be allowed more once it is trusted (the service
    /// lifts its limit after a client's `hello`).
    public var maximumFrameSize: Int

    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start; consumed bytes are dropped in batches, not one frame at a time.
    private var readIndex = 0
    private var failure: IPCError?

    /// Creates a decoder.
    /// - Parameter maximumFrameSize: The largest payload accepted; larger announcements are rejected
    ///   before any of their bytes are buffered.
    public init(maximumFrameSize: Int = WireProtocol.maximumFrameSize) {
        self.maximumFrameSize = maximumFrameSize
    }

    /// The number of received bytes that do not yet form a whole frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds bytes received from the stream.
    /// - Parameter bytes: The next bytes of the stream, in order.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next whole payload, or `nil` when more bytes are needed.
    /// - Returns: One payload, without its length header.
    /// - Throws: ``IPCError/frameTooLarge(size:limit:)`` or ``IPCError/emptyFrame`` when the stream
    ///   announces a frame no peer of this protocol sends.
    public mutating func nextFrame() throws(IPCError) -> [UInt8]? {
        if let failure { throw failure }
        let header = WireProtocol.frameHeaderSize
        guard bufferedByteCount >= header else { return nil }
        var length = 0
        for offset in 0..<header {
            length = length << 8 | Int(buffer[readIndex + offset])
        }
        if length == 0 {
            return try fail(.emptyFrame)
        }
        if length > maximumFrameSize {
            return try fail(.frameTooLarge(size: length, limit: maximumFrameSize))
        }
        guard bufferedByteCount >= header + length else { return nil }
        let start = readIndex + header
        let payload = Array(buffer[start..<start + length])
        readIndex = start + length
        compactIfWorthwhile()
        return payload
    }

    /// Checks that the stream ended on a frame boundary.
    /// - Throws: ``IPCError/connectionClosedMidFrame(bufferedBytes:)`` when part of a frame is left.
    public func finish() throws(IPCError) {
        if let failure { throw failure }
        if bufferedByteCount > 0 { throw .connectionClosedMidFrame(bufferedBytes: bufferedByteCount) }
    }

    private mutating func fail(_ error: IPCError) throws(IPCError) -> [UInt8]? {
        failure = error
        buffer = []
        readIndex = 0
        throw error
    }

    /// Drops consumed bytes once they outweigh the unread ones, so appending stays amortised O(1)
    /// without copying the tail after every small frame.
    private mutating func compactIfWorthwhile() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex > 64 * 1024, readIndex > bufferedByteCount {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
