/*
Abstract:
A client TCP connection on POSIX sockets with deadlines on connect, send and receive, optionally inside TLS.
*/

import BackgroundAssetsIPC
import Foundation
import HTTPCore
import TLS

/// One outgoing TCP connection, used by a single transfer on a single thread.
///
/// Every wait is a `poll(2)` with a timeout, so a silent server can never hang a transfer. Kept
/// alive, it waits in a ``ConnectionPool`` for the next transfer to the same server; the pool hands
/// it to one transfer at a time, which is why it may cross threads.
final class TCPConnection: @unchecked Sendable {
    /// What a receive produced.
    enum Received: Equatable {
        case bytes(Int)
        case closed
        case timedOut
    }

    private let descriptor: Int32
    /// The TLS layer, once ``startTLS(context:host:port:timeoutMilliseconds:)`` succeeded.
    private var tls: TLSStream?

    /// Connects to `host:port`, trying each address the name resolves to.
    /// - Throws: ``TransferError`` of kind `.connectionFailed` when no address accepts in time.
    init(host: String, port: Int, timeoutMilliseconds: Int32) throws(TransferError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw TransferError(.transport, .connectionFailed, "could not resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }

        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry {
            entry = address.pointee.ai_next
            let socketDescriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socketDescriptor >= 0 else { continue }
            if let failure = Self.connect(socketDescriptor, address.pointee, timeoutMilliseconds: timeoutMilliseconds) {
                lastError = failure
                close(socketDescriptor)
                continue
            }
            var one: Int32 = 1
            setsockopt(socketDescriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            descriptor = socketDescriptor
            return
        }
        throw TransferError(.transport, .connectionFailed, "could not connect to \(host):\(port): \(lastError)")
    }

    deinit {
        tls = nil
        close(descriptor)
    }

    /// Performs the TLS handshake; from then on every send and receive is encrypted.
    /// - Throws: ``TransferError``: `.certificate` (never retried) when the server's certificate is
    ///   refused, `.stalled` when the handshake misses its deadline.
    func startTLS(context: TLSClientContext, host: String, port: Int, timeoutMilliseconds: Int32) throws(TransferError) {
        do {
            tls = try TLSStream.connect(descriptor: descriptor, context: context, host: host, port: port,
                                        timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw switch error.kind {
            case let .certificate(problem): TransferError(.transport, .certificate(problem), error.message)
            case .timedOut: TransferError(.transport, .stalled, error.message)
            case .connectionLost: TransferError(.transport, .connectionLost, error.message)
            case .handshakeFailed, .configuration: TransferError(.transport, .secureConnectionFailed, error.message)
            }
        }
    }

    /// Connects without blocking past the timeout; returns the failure's text, or `nil` on success.
    private static func connect(_ descriptor: Int32, _ address: addrinfo, timeoutMilliseconds: Int32) -> String? {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return errnoText() }
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, timeoutMilliseconds) == 1 else { return "timed out" }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : errnoText(error)
    }

    /// Sends every byte, or throws when the peer goes away or stops reading past the timeout.
    func send(_ bytes: [UInt8], timeoutMilliseconds: Int32) throws(TransferError) {
        if let tls {
            let written = bytes.withUnsafeBytes { buffer in
                Result { () throws(TLSError) in try tls.write(buffer, timeoutMilliseconds: timeoutMilliseconds) }
            }
            if case let .failure(error) = written {
                throw TransferError(.transport, error.kind == .timedOut ? .stalled : .connectionLost, "sending the request failed: \(error.message)")
            }
            return
        }
        var sent = 0
        while sent < bytes.count {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, timeoutMilliseconds) == 1 else {
                throw TransferError(.transport, .stalled, "the server did not accept the request in time")
            }
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw TransferError(.transport, .connectionLost, "sending the request failed: \(errnoText(errno))")
            }
            sent += count
        }
    }

    /// Whether an idle connection can carry another request: the server has neither closed it nor
    /// sent anything unasked (a readable idle socket is an end or a protocol error).
    var isOpenAndQuiet: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Receives what is available into `buffer`, waiting at most `timeoutMilliseconds`.
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int32) throws(TransferError) -> Received {
        if let tls {
            do {
                switch try tls.read(into: buffer, timeoutMilliseconds: timeoutMilliseconds) {
                case let .bytes(count): return .bytes(count)
                case .closed: return .closed
                case .timedOut: return .timedOut
                }
            } catch {
                throw TransferError(.transport, .connectionLost, error.message)
            }
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, timeoutMilliseconds)
        if ready == 0 || (ready < 0 && errno == EINTR) { return .timedOut }
        let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        if errno == EINTR || errno == EAGAIN { return .timedOut }
        throw TransferError(.transport, .connectionLost, "the connection broke: \(errnoText(errno))")
    }
}
