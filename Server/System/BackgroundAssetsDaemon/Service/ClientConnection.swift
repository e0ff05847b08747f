/*
Abstract:
One client's connection to the service: requests decoded by the connection loop, answers queued without blocking.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import SystemLogging

/// A connected client (an app, an extension, or the debug tool) as the service sees it.
///
/// The ``ConnectionLoop`` reads the socket and yields each decoded request, in order, to an
/// `AsyncStream` the service consumes. ``send(_:)`` never blocks its caller: what the socket does
/// not take at once waits in a bounded queue the loop writes out as the client reads. A client that
/// falls ``maximumBacklog`` bytes behind is disconnected, so a hung app cannot stall the service,
/// and a malformed or oversized frame ends this connection only.
final class ClientConnection: Sendable {
    /// The unsent bytes a client may leave behind before it is disconnected; one frame of any size
    /// is always taken while less than this is waiting.
    static let maximumBacklog = 4 * 1024 * 1024

    /// The service-wide number of this connection.
    let id: UInt64
    /// The peer process, from `SO_PEERCRED`.
    let peer: PeerCredentials
    let socket: UnixSocket
    private let incoming: AsyncThrowingStream<[ClientMessage], any Error>
    private let continuation: AsyncThrowingStream<[ClientMessage], any Error>.Continuation
    private let inbound = Mutex(FrameDecoder(maximumFrameSize: WireProtocol.maximumHelloFrameSize))
    private let outbound = Mutex(Outbound())
    /// Whether `outbound` holds unsent bytes, kept beside it so the connection loop can look on every
    /// turn without taking the lock: it took it while a send held it for its `send(2)`, and spun.
    private let hasUnsent = Atomic(false)
    /// Tells the loop that there are bytes to write out.
    private let wakeLoop: @Sendable () -> Void
    private let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "connections")

    private struct Outbound {
        var pending: [UInt8] = []
        /// Where the unsent bytes of `pending` start.
        var sent = 0
        /// Frames that wait for changes to reach the disk, in order, each with the ticket it waits for.
        var held: [(ticket: Int, frame: [UInt8])] = []
        var unsent: Int { pending.count - sent }
    }

    init(id: UInt64, socket: UnixSocket, peer: PeerCredentials, wakeLoop: @escaping @Sendable () -> Void) {
        self.id = id
        self.socket = socket
        self.peer = peer
        self.wakeLoop = wakeLoop
        (incoming, continuation) = AsyncThrowingStream<[ClientMessage], any Error>.makeStream()
    }

    /// The client's requests, in order, each element the requests that arrived together (those the
    /// client pipelined, read in one turn of the loop); the stream ends when the connection closes,
    /// or with the error that made the service close it.
    func requests() -> AsyncThrowingStream<[ClientMessage], any Error> {
        incoming
    }

    /// Whether the connection is still open; requests read before it closed are not worth answering.
    var isOpen: Bool {
        socket.descriptor != nil
    }

    /// Queues a message and writes what the socket takes now; never waits for the client.
    func send(_ message: ServerMessage) {
        send(message, heldUntilDurable: nil)
    }

    /// Queues `message` to go out only once the changes up to `ticket` are on disk (``releaseHeld(through:)``),
    /// or at once when `ticket` is `nil`. Whatever is sent after a held message waits behind it, so the
    /// client reads everything in the order it was sent.
    func send(_ message: ServerMessage, heldUntilDurable ticket: Int?) {
        guard isOpen else { return }
        guard let frame = try? Self.frame(message) else {
            close()
            return
        }
        let backlog: Int? = outbound.withLock { outbound in
            // Held frames do not count: the service holds them, not a client that stopped reading.
            guard outbound.unsent < Self.maximumBacklog else { return outbound.unsent }
            if ticket != nil || !outbound.held.isEmpty {
                outbound.held.append((max(ticket ?? 0, outbound.held.last?.ticket ?? 0), frame))
                return nil
            }
            write(frame, with: &outbound)
            return nil
        }
        if let backlog {
            logger.error(
                "Disconnected process \(peer.processIdentifier): it left \(backlog) bytes of answers unread, more than \(Self.maximumBacklog).")
            close()
        } else if hasUnsentBytes {
            wakeLoop()
        }
    }

    /// Sends the held messages whose changes, up to `ticket`, are now on disk.
    func releaseHeld(through ticket: Int) {
        let isWaiting = outbound.withLock { outbound in
            while let first = outbound.held.first, first.ticket <= ticket {
                outbound.held.removeFirst()
                if isOpen { write(first.frame, with: &outbound) }
            }
            return outbound.unsent > 0
        }
        if isWaiting { wakeLoop() }
    }

    /// Writes what the socket takes of `frame` at once, behind anything unsent, and keeps the rest.
    private func write(_ frame: [UInt8], with outbound: inout Outbound) {
        if outbound.unsent > 0 {
            outbound.pending.append(contentsOf: frame)
            return
        }
        let written = frame.withUnsafeBytes { (try? socket.sendAvailable($0)) ?? -1 }
        if written < 0 {
            socket.close()
        } else if written < frame.count {
            outbound.pending = Array(frame[written...])
            outbound.sent = 0
            hasUnsent.store(true, ordering: .releasing)
        }
    }

    /// Accepts frames up to the protocol's full size, once the client's `hello` was accepted.
    func liftFrameLimit() {
        inbound.withLock { $0.maximumFrameSize = WireProtocol.maximumFrameSize }
    }

    /// Closes the connection; the loop finishes the request stream.
    func close() {
        socket.close()
        wakeLoop()
    }

    // MARK: - Called by the connection loop

    /// Whether answers are waiting for the client to read them.
    var hasUnsentBytes: Bool {
        hasUnsent.load(ordering: .acquiring)
    }

    /// Writes queued answers while the socket takes them.
    func writeQueued() {
        outbound.withLock { outbound in
            while outbound.unsent > 0 {
                let written = outbound.pending[outbound.sent...].withUnsafeBytes { (try? socket.sendAvailable($0)) ?? -1 }
                if written < 0 {
                    socket.close()
                    return
                }
                if written == 0 { return }
                outbound.sent += written
            }
            outbound.pending = []
            outbound.sent = 0
            hasUnsent.store(false, ordering: .releasing)
        }
    }

    /// Reads what has arrived and yields each whole request.
    /// - Parameter budget: The most bytes to read this turn, so one busy client cannot starve the rest.
    /// - Returns: `false` once the connection has ended and the stream is finished.
    func readAvailable(budget: Int = 256 * 1024) -> Bool {
        var read = 0
        // Handed over together, so requests a client pipelined can be handled together.
        var decoded: [ClientMessage] = []
        defer { if !decoded.isEmpty { continuation.yield(decoded) } }
        do {
            while read < budget {
                switch try socket.receiveAvailable() {
                case .wouldBlock:
                    return true
                case .end:
                    try inbound.withLock { try $0.finish() }
                    flush(&decoded)
                    finish(throwing: nil)
                    return false
                case let .bytes(bytes):
                    read += bytes.count
                    let frames = try inbound.withLock { decoder in
                        decoder.append(bytes)
                        var frames: [[UInt8]] = []
                        while let frame = try decoder.nextFrame() { frames.append(frame) }
                        return frames
                    }
                    for frame in frames {
                        decoded.append(try MessageCodec.decode(ClientMessage.self, from: frame))
                    }
                }
            }
            return true
        } catch SocketError.socketFailed(_, _, let code) where code == ECONNRESET {
            // A client that exits with unread data resets the connection: an ordinary goodbye.
            flush(&decoded)
            finish(throwing: nil)
            return false
        } catch {
            flush(&decoded)
            finish(throwing: error)
            return false
        }
    }

    /// Yields the requests decoded so far, before the stream ends.
    private func flush(_ decoded: inout [ClientMessage]) {
        if !decoded.isEmpty { continuation.yield(decoded) }
        decoded = []
    }

    /// Ends the request stream and closes the socket.
    func finish(throwing error: (any Error)?) {
        socket.close()
        continuation.finish(throwing: error)
    }
}
