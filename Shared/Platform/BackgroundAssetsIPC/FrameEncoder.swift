/*
Abstract:
Wraps a payload in a frame: a 4-byte big-endian length, then the payload.
*/

/// Turns payloads into frames ready to write to a stream socket.
public enum FrameEncoder {
    /// Returns the frame that carries a payload.
    /// - Parameters:
    ///   - payload: The bytes of one message.
    ///   - maximumFrameSize: The largest payload allowed; the peer's decoder uses the same limit.
    /// - Returns: The 4-byte big-endian length followed by the payload.
    /// - Throws: ``IPCError/emptyFrame`` for an empty payload, ``IPCError/frameTooLarge(size:limit:)``
    ///   for one over the limit: a frame the peer would reject is never sent.
    public static func frame(
        _ payload: some Collection<UInt8>, maximumFrameSize: Int = WireProtocol.maximumFrameSize
    ) throws -> [UInt8] {
        let size = payload.count
        guard size > 0 else { throw IPCError.emptyFrame }
        guard size <= maximumFrameSize, size <= Int(UInt32.max) else {
            throw IPCError.frameTooLarge(size: size, limit: maximumFrameSize)
        }
        var frame = [UInt8]()
        frame.reserveCapacity(WireProtocol.frameHeaderSize + size)
        let length = UInt32(size)
        frame.append(UInt8(truncatingIfNeeded: length >> 24))
        frame.append(UInt8(truncatingIfNeeded: length >> 16))
        frame.append(UInt8(truncatingIfNeeded: length >> 8))
        frame.append(UInt8(truncatingIfNeeded: length))
        frame.append(contentsOf: payload)
        return frame
    }
}
