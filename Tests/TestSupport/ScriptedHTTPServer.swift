/*
Abstract:
A loopback HTTP server for transfer tests that answers each request with exactly the bytes a test scripts.
*/

import Foundation
import Synchronization
import TLS

/// Accepts connections on 127.0.0.1 and answers each request with the bytes a script returns, so
/// a test can send what no well-behaved server would: wrong ranges, short bodies, silence, a body
/// that never ends, a redirect to anywhere. The transfer engine's tests run it in their own process;
/// end-to-end tests point the real service at it.
public final class ScriptedHTTPServer: Sendable {
    /// What to do with one request.
    public struct Reply: Sendable {
        /// The raw bytes to send: status line, header fields, body.
        public var bytes: [UInt8]
        /// Keep the connection open and silent afterwards, to simulate a stalled server.
        public var stallAfterwards = false
        /// Send one byte every this many milliseconds, to simulate a server that drips its answer.
        public var dripMilliseconds: UInt32?
        /// With `dripMilliseconds`, how many of the first bytes go at once before the drip begins
        /// (the head, say, so that only the body crawls).
        public var dripFrom = 0
        /// Bytes sent again and again after `bytes`, until the client goes away: a body that never
        /// ends. Plain http only.
        public var endlessTail: [UInt8]?

        public init(_ bytes: [UInt8], stallAfterwards: Bool = false) {
            self.bytes = bytes
            self.stallAfterwards = stallAfterwards
        }

        /// A response with a status, header fields and a body; Content-Length is added unless given.
        public static func response(_ status: String, _ fields: [String] = [], body: [UInt8] = [], stallAfterwards: Bool = false) -> Reply {
            var head = "HTTP/1.1 \(status)\r\n"
            if !fields.contains(where: { $0.lowercased().hasPrefix("content-length:") || $0.lowercased().hasPrefix("transfer-encoding:") }) {
                head += "Content-Length: \(body.count)\r\n"
            }
            for field in fields { head += field + "\r\n" }
            return Reply(Array((head + "Connection: close\r\n\r\n").utf8) + body, stallAfterwards: stallAfterwards)
        }

        /// A response whose head (with the body's Content-Length) comes at once and whose body comes
        /// one byte every `milliseconds`: never silent for long, never done.
        public static func dripping(
            _ body: [UInt8], everyMilliseconds milliseconds: UInt32, status: String = "200 OK", fields: [String] = []
        ) -> Reply {
            let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.count)"] + fields).joined(separator: "\r\n") + "\r\n\r\n"
            var reply = Reply(Array(head.utf8) + body)
            reply.dripFrom = reply.bytes.count - body.count
            reply.dripMilliseconds = milliseconds
            return reply
        }

        /// A 200 with a chunked body of 64 KiB chunks that never ends.
        public static func endlessChunkedBody() -> Reply {
            var reply = Reply.response("200 OK", ["Transfer-Encoding: chunked"])
            reply.endlessTail = Array("10000\r\n".utf8) + [UInt8](repeating: 0x78, count: 65_536) + [13, 10]
            return reply
        }
    }

    /// The port it listens on.
    public let port: Int
    /// The TLS the server speaks, if any: then its URLs are https.
    public let tls: TLSServerContext?
    private let listener: Int32
    private let openStreams = Mutex<[StreamBox]>([])

    /// Keeps a stalled TLS connection's stream alive until ``stop()``.
    private final class StreamBox: @unchecked Sendable {
        let stream: TLSStream
        init(_ stream: TLSStream) { self.stream = stream }
    }
    private let script: @Sendable (_ requestHead: String, _ index: Int) -> Reply
    private let state = Mutex<(requests: [String], stopped: Bool, stalled: [Int32])>(([], false, []))

    /// The length of the queue of connections not yet accepted.
    private static let backlog: Int32 = 16

    /// Starts listening on a free loopback port.
    /// - Parameters:
    ///   - tls: Speak TLS with this context; the server's URLs are then https.
    ///   - script: Returns the reply to the `index`th request (from 0), given its head.
    /// - Throws: `POSIXError` when no socket can be bound and listen.
    public convenience init(tls: TLSServerContext? = nil, script: @escaping @Sendable (_ requestHead: String, _ index: Int) -> Reply) throws {
        try self.init(listener: Self.listenOnFreePort(), tls: tls, script: script)
    }

    /// Starts answering on the port a ``RefusingPort`` holds: its own socket starts listening, so the
    /// port goes from refusing to answering without a moment in which another socket could take it.
    /// - Parameters:
    ///   - port: The refusing port; it may be released afterwards, and the port stays this server's.
    ///   - tls: Speak TLS with this context; the server's URLs are then https.
    ///   - script: Returns the reply to the `index`th request (from 0), given its head.
    /// - Throws: `TestSupportError` when the port's socket cannot listen.
    public convenience init(
        takingOver port: RefusingPort, tls: TLSServerContext? = nil,
        script: @escaping @Sendable (_ requestHead: String, _ index: Int) -> Reply
    ) throws {
        try self.init(listener: port.takeOverListening(backlog: Self.backlog), tls: tls, script: script)
    }

    private init(listener: Int32, tls: TLSServerContext?, script: @escaping @Sendable (_ requestHead: String, _ index: Int) -> Reply) throws {
        self.script = script
        self.tls = tls
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) == 0 }
        }
        guard named else {
            let failure = errno
            close(listener)
            throw TestSupportError("Could not read the port of a listening socket: errno \(failure).")
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    /// A socket listening on a free loopback port.
    private static func listenOnFreePort() throws -> Int32 {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let listening = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(listener, backlog) == 0
            }
        }
        guard listening else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        return listener
    }

    /// The heads of the requests received so far, in order.
    public var requests: [String] { state.withLock { $0.requests } }

    /// The URL of a path on this server.
    public func url(_ path: String) -> URL { URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)\(path)")! }

    /// Stops accepting and closes stalled connections.
    ///
    /// The accept thread owns the listener and closes it only once it sees `stopped`, which is set after
    /// the shutdown here: closed any earlier, its number could be another test's socket by the time
    /// the shutdown reached it. A second call closes nothing again.
    public func stop() {
        let wasStopped = state.withLock { $0.stopped }
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
        let stalled = state.withLock { state in
            state.stopped = true
            defer { state.stalled = [] }
            return state.stalled
        }
        openStreams.withLock { $0.removeAll() }
        for descriptor in stalled { close(descriptor) }
    }

    /// Keeps a stalled connection open until ``stop()``, or closes it now if that has already run.
    private func keepStalled(_ client: Int32) {
        let kept = state.withLock { state in
            if !state.stopped { state.stalled.append(client) }
            return !state.stopped
        }
        if !kept { close(client) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopped }) { close(listener); return }
                continue
            }
            let server = self
            Thread.detachNewThread { server.serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        var stream: TLSStream?
        if let tls {
            guard let accepted = try? TLSStream.accept(descriptor: client, context: tls, timeoutMilliseconds: 5000) else {
                close(client)
                return
            }
            stream = accepted
        }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            if let stream {
                let read = withUnsafeMutableBytes(of: &byte) { try? stream.read(into: $0, timeoutMilliseconds: 5000) }
                guard read == .bytes(1) else { close(client); return }
            } else {
                guard recv(client, &byte, 1, 0) == 1 else { close(client); return }
            }
            head.append(byte)
        }
        let text = String(decoding: head, as: UTF8.self)
        let index = state.withLock { state in
            state.requests.append(text)
            return state.requests.count - 1
        }
        let reply = script(text, index)
        if let stream {
            _ = reply.bytes.withUnsafeBytes { try? stream.write($0, timeoutMilliseconds: 5000) }
            if reply.stallAfterwards {
                openStreams.withLock { $0.append(StreamBox(stream)) }
                keepStalled(client)
            } else {
                stream.shutdown()
                shutdown(client, Int32(SHUT_WR))
                close(client)
            }
            return
        }
        var sent = 0
        var clientLeft = false
        while sent < reply.bytes.count {
            let dripping = reply.dripMilliseconds != nil && sent >= reply.dripFrom
            let chunk = dripping ? 1 : (reply.dripMilliseconds == nil ? reply.bytes.count : reply.dripFrom) - sent
            let count = reply.bytes.withUnsafeBytes { send(client, $0.baseAddress! + sent, chunk, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { clientLeft = true; break }
            sent += count
            if dripping, let drip = reply.dripMilliseconds { usleep(drip * 1000) }
        }
        if let tail = reply.endlessTail, !tail.isEmpty, !clientLeft {
            while !state.withLock({ $0.stopped }), tail.withUnsafeBytes({ send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
        }
        if reply.stallAfterwards {
            keepStalled(client)
        } else {
            shutdown(client, Int32(SHUT_WR))
            close(client)
        }
    }
}

extension String {
    /// The target of a request head, its request line's second word (`/a.mp4`), or `nil` when it has none.
    public var requestTarget: String? {
        split(separator: " ").dropFirst().first.map(String.init)
    }

    /// The value of a header field in a request head, matched case-insensitively.
    public func headerValue(_ name: String) -> String? {
        for line in split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
