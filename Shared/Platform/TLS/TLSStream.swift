/*
Abstract:
One TLS connection over a socket the caller owns: handshake, read and write, every wait bounded by a deadline.
*/

import DevicePlatform
import COpenSSL
import Foundation

/// A TLS connection on a connected socket.
///
/// The socket is switched to non-blocking mode and every wait is a `poll(2)` with a timeout, so
/// neither a silent peer nor one that stops halfway through a handshake can hold a thread forever.
/// The socket stays the caller's to close; the stream is used by one thread at a time.
public final class TLSStream {
    /// What a read produced.
    public enum Read: Equatable {
        case bytes(Int)
        case closed
        case timedOut
    }

    let ssl: OpaquePointer
    /// The socket the stream runs on.
    public let descriptor: Int32

    /// The protocol ALPN chose, if the peer took part.
    public var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Whether bytes already received wait inside the TLS layer, where polling the socket cannot see them.
    public var hasBufferedBytes: Bool { SSL_has_pending(ssl) == 1 }

    /// Whether the connection resumed an earlier session instead of a full handshake.
    public var resumedSession: Bool { SSL_session_reused(ssl) == 1 }

    /// The version spoken, such as `TLSv1.3`.
    public var version: String { String(cString: SSL_get_version(ssl)) }

    /// Where to keep the session when the stream ends, for a client stream.
    private var resumption: (context: TLSClientContext, key: String)?

    private init(ssl: OpaquePointer, descriptor: Int32) {
        self.ssl = ssl
        self.descriptor = descriptor
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        SSL_set_fd(ssl, descriptor)
    }

    deinit {
        // TLS 1.3 servers send their session tickets after the handshake, so the session worth
        // keeping is the one the stream holds at its end, not at its start.
        if let resumption, let session = SSL_get1_session(ssl) {
            if SSL_SESSION_is_resumable(session) == 1 {
                resumption.context.keep(session, for: resumption.key)
            } else {
                SSL_SESSION_free(session)
            }
        }
        if resumption != nil {
            // SSL_free marks the session of a connection that was not shut down as not resumable;
            // a connection closed after a complete HTTP response is a normal end for this use.
            SSL_set_shutdown(ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN)
        }
        SSL_free(ssl)
    }

    /// Performs the client handshake, verifying the server's certificate against `host`.
    /// - Parameters:
    ///   - descriptor: A connected socket.
    ///   - context: The trust to verify with.
    ///   - host: The name or IP address the certificate must be for; sent as SNI when a name.
    ///   - port: The server's port, which with `host` names the session kept for resumption.
    ///   - timeoutMilliseconds: The deadline for the whole handshake.
    /// - Throws: ``TLSError``; `.certificate` when the certificate was refused.
    public static func connect(
        descriptor: Int32, context: TLSClientContext, host: String, port: Int, timeoutMilliseconds: Int32
    ) throws(TLSError) -> TLSStream {
        guard let ssl = SSL_new(context.context) else {
            throw TLSError(.configuration, "OpenSSL could not create a connection: \(TLSError.drainQueue())")
        }
        let stream = TLSStream(ssl: ssl, descriptor: descriptor)
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if Self.isIPAddress(name) {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name)
        } else {
            _ = copenssl_set_host_name(ssl, name)
            SSL_set1_host(ssl, name)
        }
        let key = "\(name):\(port)"
        if let session = context.session(for: key) {
            SSL_set_session(ssl, session)
            SSL_SESSION_free(session)
        }
        try stream.handshake(timeoutMilliseconds: timeoutMilliseconds, host: name) { SSL_connect($0) }
        stream.resumption = (context, key)
        return stream
    }

    /// Performs the server handshake on an accepted socket.
    /// - Throws: ``TLSError``; `.timedOut` when the client does not finish in time.
    public static func accept(descriptor: Int32, context: TLSServerContext, timeoutMilliseconds: Int32) throws(TLSError) -> TLSStream {
        guard let ssl = SSL_new(context.context) else {
            throw TLSError(.configuration, "OpenSSL could not create a connection: \(TLSError.drainQueue())")
        }
        let stream = TLSStream(ssl: ssl, descriptor: descriptor)
        try stream.handshake(timeoutMilliseconds: timeoutMilliseconds, host: "the client") { SSL_accept($0) }
        return stream
    }

    private func handshake(timeoutMilliseconds: Int32, host: String, _ step: (OpaquePointer) -> Int32) throws(TLSError) {
        let deadline = MonotonicClock.deadline(in: timeoutMilliseconds)
        ERR_clear_error()
        while true {
            let result = step(ssl)
            if result == 1 { return }
            let error = SSL_get_error(ssl, result)
            let savedErrno = errno
            switch error {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                let remaining = MonotonicClock.millisecondsUntil(deadline)
                guard remaining > 0, wait(forReading: error == SSL_ERROR_WANT_READ, milliseconds: remaining) else {
                    throw TLSError(.timedOut, "the TLS handshake with \(host) did not finish within \(timeoutMilliseconds) ms")
                }
            default:
                let verifyResult = SSL_get_verify_result(ssl)
                if verifyResult != X509_V_OK {
                    _ = TLSError.drainQueue()
                    throw TLSError.certificate(verifyResult: verifyResult, host: host)
                }
                let reason = TLSError.drainQueue()
                if error == SSL_ERROR_SYSCALL || error == SSL_ERROR_ZERO_RETURN || (reason.isEmpty && error != SSL_ERROR_SSL) {
                    let cause = savedErrno == 0 ? "closed the connection" : errnoText(savedErrno)
                    throw TLSError(.connectionLost, "the TLS handshake with \(host) failed: \(cause)")
                }
                if reason.contains("unexpected eof") {
                    throw TLSError(.connectionLost, "the TLS handshake with \(host) failed: the peer closed the connection")
                }
                throw TLSError(.handshakeFailed, "the TLS handshake with \(host) failed: \(reason)")
            }
        }
    }

    /// Reads what is available into `buffer`, waiting at most `timeoutMilliseconds` for it.
    /// - Throws: ``TLSError`` of kind `.connectionLost` when the connection breaks.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int32) throws(TLSError) -> Read {
        let deadline = MonotonicClock.deadline(in: timeoutMilliseconds)
        while true {
            ERR_clear_error()
            let count = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
            if count > 0 { return .bytes(fill(buffer, from: Int(count))) }
            let error = SSL_get_error(ssl, count)
            switch error {
            case SSL_ERROR_ZERO_RETURN:
                return .closed
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                let remaining = MonotonicClock.millisecondsUntil(deadline)
                guard remaining > 0, wait(forReading: error == SSL_ERROR_WANT_READ, milliseconds: remaining) else { return .timedOut }
            case SSL_ERROR_SYSCALL where errno == 0:
                return .closed
            default:
                let reason = TLSError.drainQueue()
                throw TLSError(.connectionLost, "the TLS connection broke: \(reason.isEmpty ? errnoText() : reason)")
            }
        }
    }

    /// Reads more records into the rest of `buffer` while they are already here, without waiting:
    /// one record is at most 16 KiB, and a caller that writes each read to disk is faster with fewer,
    /// larger pieces.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer, from start: Int) -> Int {
        var filled = start
        while filled < buffer.count {
            let count = SSL_read(ssl, buffer.baseAddress! + filled, Int32(clamping: buffer.count - filled))
            guard count > 0 else {
                // WANT_READ: nothing more yet. An end or an error is seen again by the next read.
                ERR_clear_error()
                break
            }
            filled += Int(count)
        }
        return filled
    }

    /// Writes every byte of `buffer`.
    /// - Throws: ``TLSError`` of kind `.timedOut` when the peer stops reading for `timeoutMilliseconds`,
    ///   `.connectionLost` when it goes away.
    public func write(_ buffer: UnsafeRawBufferPointer, timeoutMilliseconds: Int32) throws(TLSError) {
        var written = 0
        while written < buffer.count {
            ERR_clear_error()
            let count = SSL_write(ssl, buffer.baseAddress! + written, Int32(clamping: buffer.count - written))
            if count > 0 {
                written += Int(count)
                continue
            }
            let error = SSL_get_error(ssl, count)
            switch error {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                guard wait(forReading: error == SSL_ERROR_WANT_READ, milliseconds: timeoutMilliseconds) else {
                    throw TLSError(.timedOut, "the peer did not accept data for \(timeoutMilliseconds) ms")
                }
            default:
                let reason = TLSError.drainQueue()
                throw TLSError(.connectionLost, "sending over TLS failed: \(reason.isEmpty ? errnoText() : reason)")
            }
        }
    }

    /// Sends a TLS close_notify without waiting for the peer's.
    public func shutdown() {
        _ = SSL_shutdown(ssl)
    }

    private func wait(forReading: Bool, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(forReading ? POLLIN : POLLOUT), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
