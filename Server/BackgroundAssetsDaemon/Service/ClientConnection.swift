/*
Abstract:
One client's connection to the service: a reader thread that decodes frames, and serialized sends.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// A connected client (an app, an extension, or the debug tool) as the service sees it.
///
/// A dedicated thread reads the socket and yields each decoded request, in order, to an
/// `AsyncStream` the service consumes; sends from any task are serialized by the socket's writer
/// lock. A malformed or oversized frame ends this connection only.
final class ClientConnection: Sendable {
    /// The service-wide number of this connection.
    let id: UInt64
    /// The peer process, from `SO_PEERCRED`.
    let peer: PeerCredentials
    private let socket: UnixSocket
    private let sendLock = Mutex(())

    init(id: UInt64, socket: UnixSocket, peer: PeerCredentials) {
        self.id = id
        self.socket = socket
        self.peer = peer
    }

    /// The client's requests, in order; the stream ends when the connection closes, or with the
    /// error that made the service close it.
    func requests() -> AsyncThrowingStream<ClientMessage, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ClientMessage, any Error>.makeStream()
        let socket = socket
        Thread.detachNewThread {
            var decoder = FrameDecoder()
            do {
                while true {
                    let bytes = try socket.receive()
                    if bytes.isEmpty {
                        try decoder.finish()
                        continuation.finish()
                        return
                    }
                    decoder.append(bytes)
                    while let frame = try decoder.nextFrame() {
                        continuation.yield(try MessageCodec.decode(ClientMessage.self, from: frame))
                    }
                }
            } catch IPCError.socketFailed(_, _, let code) where code == ECONNRESET {
                // A client that exits with unread data resets the connection: an ordinary goodbye.
                socket.close()
                continuation.finish()
            } catch {
                socket.close()
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// Sends a message; a client that cannot be written to is disconnected.
    func send(_ message: ServerMessage) {
        do {
            let frame = try MessageCodec.frame(message)
            try sendLock.withLock { _ in try socket.send(frame) }
        } catch {
            socket.close()
        }
    }

    /// Closes the connection; the reader thread ends and the request stream finishes.
    func close() {
        socket.close()
    }
}
