/*
Abstract:
Encodes messages to JSON frames and decodes frames back into messages.
*/

import Foundation

/// Converts between messages and the JSON payloads inside frames.
///
/// Both sides use the same settings: dates as seconds since 1970, keys sorted so identical
/// messages are identical bytes (useful in traces and tests). The JSON is what Foundation's
/// `JSONEncoder` writes with these settings, through a codec of the protocol's own
/// (``WireJSONEncoder``, ``WireJSONDecoder``) several times faster than Foundation's.
public enum MessageCodec {
    /// Encodes a message as a complete frame, header included.
    /// - Parameters:
    ///   - message: A ``ClientMessage`` or ``ServerMessage``.
    ///   - maximumFrameSize: The largest payload allowed.
    /// - Returns: The bytes to write to the socket.
    /// - Throws: ``IPCError/encodingFailed(reason:)``, or a framing error when the message is too large.
    public static func frame(
        _ message: some Encodable, maximumFrameSize: Int = WireProtocol.maximumFrameSize
    ) throws -> [UInt8] {
        try FrameEncoder.frame(encode(message), maximumFrameSize: maximumFrameSize)
    }

    /// Encodes a message as a JSON payload, without the frame header.
    /// - Parameter message: The message.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``IPCError/encodingFailed(reason:)``.
    public static func encode(_ message: some Encodable) throws -> [UInt8] {
        // The messages sent for every download skip the tree (WireJSONWriter+ServerMessage.swift,
        // WireJSONWriter+ClientMessage.swift), and so do the notices the extension's backlog keeps
        // (WireJSONWriter+ExtensionCall.swift).
        if let message = message as? ServerMessage, let bytes = WireJSONWriter.fieldByField(message) { return bytes }
        if let message = message as? ClientMessage, let bytes = WireJSONWriter.fieldByField(message) { return bytes }
        if let call = message as? ExtensionCall, let bytes = WireJSONWriter.fieldByField(call) { return bytes }
        do {
            return try WireJSONEncoder.encode(message)
        } catch {
            throw IPCError.encodingFailed(reason: String(describing: error))
        }
    }

    /// Decodes a payload into a message.
    /// - Parameters:
    ///   - type: The message type expected on this side of the connection.
    ///   - payload: One payload from ``FrameDecoder/nextFrame()``.
    /// - Returns: The message.
    /// - Throws: ``IPCError/malformedMessage(reason:)`` when the payload is not such a message.
    public static func decode<Message: Decodable>(
        _ type: Message.Type, from payload: some Collection<UInt8>
    ) throws -> Message {
        do {
            return try WireJSONDecoder.decode(type, from: payload)
        } catch let error as DecodingError {
            throw IPCError.malformedMessage(reason: Self.summary(of: error))
        } catch {
            throw IPCError.malformedMessage(reason: String(describing: error))
        }
    }

    /// A short reason for a decoding error: the coding path and the problem, never the payload itself.
    private static func summary(of error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".")
        }
        switch error {
        case let .typeMismatch(type, context): return "expected \(type) at \(path(context))"
        case let .valueNotFound(type, context): return "missing \(type) at \(path(context))"
        case let .keyNotFound(key, context): return "missing key \(key.stringValue) at \(path(context))"
        case let .dataCorrupted(context): return "invalid data at \(path(context))"
        @unknown default: return "undecodable payload"
        }
    }
}
