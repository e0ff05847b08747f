/*
Abstract:
The errors of the wire protocol: framing, encoding and decoding.
*/

/// An error raised while framing, encoding or decoding messages; moving their bytes over a socket
/// fails with ``SocketError``.
///
/// A framing or decoding error means the byte stream can no longer be trusted, so the connection
/// that produced it is closed; the peer, and every other connection, carries on.
public enum IPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A frame announced a payload larger than the limit.
    case frameTooLarge(size: Int, limit: Int)
    /// A frame announced an empty payload, which no message encodes to.
    case emptyFrame
    /// A payload was not a valid message.
    case malformedMessage(reason: String)
    /// A message could not be encoded.
    case encodingFailed(reason: String)
    /// The peer closed the connection in the middle of a frame.
    case connectionClosedMidFrame(bufferedBytes: Int)

    /// A sentence naming the offending value and what to do next.
    public var description: String {
        switch self {
        case let .frameTooLarge(size, limit):
            "A frame announced \(size) bytes, more than the \(limit)-byte limit; the connection is closed. "
                + "Split the message, or check that both sides speak protocol version \(WireProtocol.version)."
        case .emptyFrame:
            "A frame announced an empty payload; the connection is closed. Check that the peer speaks this protocol."
        case let .malformedMessage(reason):
            "A message could not be decoded (\(reason)); the connection is closed. "
                + "Check that both sides were built from the same sources."
        case let .encodingFailed(reason):
            "A message could not be encoded (\(reason)). This is a bug in the sender; report it with the message."
        case let .connectionClosedMidFrame(buffered):
            "The peer closed the connection with \(buffered) bytes of an unfinished frame; the partial message "
                + "is dropped. Retry the request on a new connection."
        }
    }
}
