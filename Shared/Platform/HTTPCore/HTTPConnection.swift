/*
Abstract:
A client TCP connection on POSIX sockets with deadlines on connect, send and receive, optionally inside TLS.
*/

import DevicePlatform
import Foundation
import TLS

/// One outgoing TCP connection, used by one exchange at a time.
///
/// Every wait is a `poll(2)` with a timeout, so a silent server can never hang its caller. The
/// service's transfer engine keeps idle ones in its pool and hands each to one transfer at a time,
/// which is why it may cross threads; the app's https fetch uses one per request.
public final class HTTPConnection: @unchecked Sendable {
    // @unchecked: the descriptor and the TLS layer are used by one exchange at a time (the owner
    // hands the connection over, never shares it); `tls` is set once, before the first exchange.

    /// What a receive produced.
    public enum Received: Equatable, Sendable {
        case bytes(Int)
        case closed
        case timedOut
    }

    private let descriptor: Int32
    /// The TLS layer, once ``startTLS(context:host:port:timeoutMilliseconds:)`` succeeded.
    private var tls: TLSStream?

    /// Connects to `host:port`, trying each address the name resolves to.
    /// - Throws: ``HTTPError`` of kind `.connectionFailed` when no address accepts in time.
    public init(host: String, port: Int, timeoutMilliseconds: Int32) throws(HTTPError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw HTTPError(.connectionFailed, "could not resolve \(host): \(String(cString: gai_strerror(status)))")
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
        throw HTTPError(.connectionFailed, "could not connect to \(host):\(port): \(lastError)")
    }

    deinit {
        tls = nil
        close(descriptor)
    }

    /// Performs the TLS handshake; from then on every send and receive is encrypted.
    /// - Throws: ``HTTPError``: `.certificate` when the server's certificate is refused,
    ///   `.timedOut` when the handshake misses its deadline.
    public func startTLS(context: TLSClientContext, host: String, port: Int, timeoutMilliseconds: Int32) throws(HTTPError) {
        do {
            tls = try TLSStream.connect(descriptor: descriptor, context: context, host: host, port: port,
                                        timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw switch error.kind {
            case let .certificate(problem): HTTPError(.certificate(problem), error.message)
            case .timedOut: HTTPError(.timedOut, error.message)
            case .connectionLost: HTTPError(.connectionLost, error.message)
            case .handshakeFailed, .configuration: HTTPError(.secureConnectionFailed, error.message)
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
    public func send(_ bytes: [UInt8], timeoutMilliseconds: Int32) throws(HTTPError) {
        if let tls {
            let written = bytes.withUnsafeBytes { buffer in
                Result { () throws(TLSError) in try tls.write(buffer, timeoutMilliseconds: timeoutMilliseconds) }
            }
            if case let .failure(error) = written {
                throw HTTPError(error.kind == .timedOut ? .timedOut : .connectionLost, "sending the request failed: \(error.message)")
            }
            return
        }
        var sent = 0
        while sent < bytes.count {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, timeoutMilliseconds) == 1 else {
                throw HTTPError(.timedOut, "the server did not accept the request in time")
            }
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress.map { $0 + sent }, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw HTTPError(.connectionLost, "sending the request failed: \(errnoText())")
            }
            sent += count
        }
    }

    /// Whether an idle connection can carry another request: the server has neither closed it nor
    /// sent anything unasked (a readable idle socket is an end or a protocol error).
    public var isOpenAndQuiet: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Receives what is available into `buffer`, waiting at most `timeoutMilliseconds`.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int32) throws(HTTPError) -> Received {
        if let tls {
            do {
                switch try tls.read(into: buffer, timeoutMilliseconds: timeoutMilliseconds) {
                case let .bytes(count): return .bytes(count)
                case .closed: return .closed
                case .timedOut: return .timedOut
                }
            } catch {
                throw HTTPError(.connectionLost, error.message)
            }
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, timeoutMilliseconds)
        if ready == 0 || (ready < 0 && errno == EINTR) { return .timedOut }
        let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        if errno == EINTR || errno == EAGAIN { return .timedOut }
        throw HTTPError(.connectionLost, "the connection broke: \(errnoText())")
    }
}
