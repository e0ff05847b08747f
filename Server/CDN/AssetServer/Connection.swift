/*
Abstract:
One client connection: reads request heads under deadlines, answers them in order, and closes politely.
*/

import Foundation
import HTTPCore
import ServerRuntime

/// Serves one client socket on its own thread until the client leaves, misbehaves, or the server stops.
final class Connection {
    /// What happens to the connection after a response.
    enum Disposition {
        /// Wait for the next request.
        case keepAlive
        /// Close after letting the client read the response (a lingering close).
        case close
        /// Close at once: the response was cut on purpose or the client is gone.
        case abort
    }

    private(set) var stream: SocketStream
    let context: ServingContext
    private let capacity: Int
    private let buffer: UnsafeMutableRawBufferPointer
    private var filled = 0
    private var answeredRequest = false
    /// The `Date` and `Last-Modified` values of the previous response, reused while they still hold.
    var dateField = HTTPDate.Cache()
    var lastModifiedField = HTTPDate.Cache()

    init(descriptor: Int32, context: ServingContext) {
        stream = SocketStream(descriptor: descriptor, shutdownDescriptor: context.shutdownDescriptor, clock: context.clock)
        self.context = context
        let limits = context.configuration.limits
        capacity = limits.maximumRequestLineLength + limits.maximumHeaderBytes + 8
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Serves requests until the connection ends, then unregisters and closes the socket.
    func run() {
        if let tls = context.tls {
            guard let accepted = acceptTLS(tls) else {
                context.registry.remove(andClose: stream.descriptor)
                return
            }
            stream.tls = accepted
        }
        defer { stream.tls = nil }
        var disposition = Disposition.keepAlive
        while disposition == .keepAlive, !(context.isStopping && filled == 0) {
            disposition = serveNextRequest()
        }
        if disposition == .close {
            stream.tls?.shutdown()
            lingerBeforeClosing()
        }
        context.registry.remove(andClose: stream.descriptor)
    }

    private func serveNextRequest() -> Disposition {
        let head: HTTPRequestHead
        switch readHead() {
        case .head(let parsed): head = parsed
        case .failed(let error): return respondToMalformedRequest(status: error.status)
        case .timedOutMidHead: return respondToMalformedRequest(status: 408)
        case .ended: return .abort
        }
        answeredRequest = true
        if Upload.isUpload(head) { return receiveUpload(head) }
        guard discardBody(of: head) else {
            return respond(to: head, withStatus: head.contentLength > context.configuration.limits
                .maximumDiscardedBodyBytes ? 413 : 400, keepAlive: false)
        }
        return respond(to: head)
    }

    private enum HeadResult {
        case head(HTTPRequestHead)
        case failed(HTTPRequestError)
        case timedOutMidHead
        case ended
    }

    /// Reads one request head: the idle timeout applies until its first byte, then the head deadline.
    private func readHead() -> HeadResult {
        let limits = context.configuration.limits
        let idleDeadline = context.clock.now() &+ context.idleTimeout
        var headDeadline: UInt64?
        var scanned = 0
        // After a response the client has rarely sent its next request yet, so a read would only find
        // nothing: wait for it first (one system call a request fewer). A pipelined request is there at once.
        var waitsFirst = answeredRequest
        while true {
            dropLeadingLineBreaks()
            if filled > 0 {
                if headDeadline == nil { headDeadline = context.clock.now() &+ context.requestHeadTimeout }
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<filled])
                if let length = HTTPHeadEnd.length(in: bytes, searchingFrom: max(0, scanned - 2)) {
                    defer { consume(length) }
                    do {
                        return .head(try context.parser.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<length])))
                    } catch {
                        return .failed(error)
                    }
                }
                scanned = filled
                // Refuse as soon as a limit is crossed instead of buffering whatever the client sends.
                let lineEnd = bytes.firstIndex(of: 0x0A)
                if (lineEnd ?? filled) > limits.maximumRequestLineLength + 1 { return .failed(.uriTooLong) }
                if let lineEnd, filled - lineEnd - 1 > limits.maximumHeaderBytes + 2 {
                    return .failed(.headerFieldsTooLarge)
                }
            }
            let space = UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<capacity])
            do {
                filled += try stream.receive(into: space, deadline: headDeadline ?? idleDeadline,
                                             interruptible: headDeadline == nil, waitsFirst: waitsFirst && filled == 0)
                waitsFirst = false
            } catch .timedOut where headDeadline != nil {
                return .timedOutMidHead
            } catch {
                return .ended
            }
        }
    }

    /// Takes up to `space.count` bytes of the request body: those already read with the head first,
    /// then from the socket, waiting until `deadline` for each piece.
    /// - Returns: How many bytes were taken; 0 when the client is gone or too slow.
    func receiveBodyBytes(into space: UnsafeMutableRawBufferPointer, deadline: UInt64) -> Int {
        if filled > 0, let base = buffer.baseAddress, let target = space.baseAddress {
            let taken = min(filled, space.count)
            memcpy(target, base, taken)
            consume(taken)
            return taken
        }
        return (try? stream.receive(into: space, deadline: deadline, interruptible: false)) ?? 0
    }

    /// Reads and throws away a small request body so the next request on the connection parses cleanly.
    private func discardBody(of head: HTTPRequestHead) -> Bool {
        guard head.contentLength > 0 else { return true }
        guard head.contentLength <= Int64(context.configuration.limits.maximumDiscardedBodyBytes) else { return false }
        var remaining = Int(head.contentLength)
        let deadline = context.clock.now() &+ context.requestHeadTimeout
        while remaining > 0 {
            if filled == 0 {
                let space = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<capacity])
                guard let count = try? stream.receive(into: space, deadline: deadline, interruptible: false) else {
                    return false
                }
                filled = count
            }
            let taken = min(filled, remaining)
            consume(taken)
            remaining -= taken
        }
        return true
    }

    /// Answers a request whose head could not be read, then closes: its framing cannot be trusted.
    private func respondToMalformedRequest(status: Int) -> Disposition {
        let head = HTTPRequestHead(method: "", target: "", minorVersion: 1, headers: HTTPHeaders(), contentLength: 0)
        return respond(to: head, withStatus: status, keepAlive: false)
    }

    private func dropLeadingLineBreaks() {
        var count = 0
        while count < filled, buffer[count] == 0x0D || buffer[count] == 0x0A { count += 1 }
        if count > 0 { consume(count) }
    }

    private func consume(_ count: Int) {
        if count < filled, let base = buffer.baseAddress {
            memmove(base, base + count, filled - count)
        }
        filled -= count
    }

    /// Half-closes, then reads and discards briefly, so unread request bytes do not turn the close into a
    /// reset that destroys the response before the client reads it (the "lingering close" of RFC 9112 9.6).
    private func lingerBeforeClosing() {
        // Nothing unread means nothing to reset the connection: a plain close sends the FIN, and the descriptor
        // is already released when the client sees the end of the response.
        let pending = recv(stream.descriptor, buffer.baseAddress, capacity, Int32(MSG_DONTWAIT))
        guard pending > 0 else { return }
        shutdown(stream.descriptor, Int32(SHUT_WR))
        let deadline = context.clock.now() &+ 1_000_000_000
        var drained = 0
        while drained < 256 * 1024 {
            let space = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<capacity])
            guard let count = try? stream.receive(into: space, deadline: deadline, interruptible: false) else { return }
            drained += count
        }
    }
}
