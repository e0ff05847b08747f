/*
Abstract:
A tiny HTTP/1.1 client on a POSIX socket, for exact header control and malformed input.
*/

import BackgroundAssetsIPC

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to a loopback HTTP server that sends exactly the bytes a test gives it.
///
/// URLSession normalises requests; this client does not, so tests can send malformed or
/// oversized requests, send slowly, reuse one keep-alive connection, and see when the server
/// closes it. The socket is non-blocking and waiting suspends the task, so a test that waits
/// seconds for a slow server never holds one of Swift concurrency's few threads.
public final class RawHTTPClient {
    /// The server's port on 127.0.0.1.
    public let port: Int
    /// How long one read or write may wait for progress before the call throws.
    public var timeout: Duration

    // Internal, not private: RawHTTPClient+Receiving.swift reads responses through them.
    var descriptor: Int32
    var buffer: [UInt8] = []
    var peerClosed = false

    /// Connects to `127.0.0.1:port`.
    /// - Parameters:
    ///   - port: The server's port.
    ///   - timeout: How long one read or write may wait for progress.
    /// - Throws: `TestSupportError` when the connection is refused.
    public init(port: Int, timeout: Duration = defaultPollTimeout) throws {
        self.port = port
        self.timeout = timeout
        descriptor = try SocketAddress.loopbackSocket()
        // A loopback connect completes at once or is refused; the limit guards against a full backlog.
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard SocketAddress.connectToLoopback(descriptor, port: port) else {
            let reason = errnoText()
            _ = closeSocket(descriptor)
            descriptor = -1
            throw TestSupportError("Could not connect to 127.0.0.1:\(port): \(reason). Is the server running?")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close()
    }

    /// Whether this side still has the connection open (the server may have closed its side).
    public var isOpen: Bool {
        descriptor >= 0
    }

    /// Closes the connection; calling it again does nothing.
    public func close() {
        if descriptor >= 0 {
            _ = closeSocket(descriptor)
            descriptor = -1
        }
    }

    // MARK: - Sending

    /// Sends bytes exactly as given.
    /// - Parameter bytes: The bytes to send.
    /// - Throws: `TestSupportError` when the server has closed the connection or the write times out.
    public func send(_ bytes: [UInt8]) async throws {
        var offset = 0
        var deadline = ContinuousClock.now.advanced(by: timeout)
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                sendBytes(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    guard ContinuousClock.now < deadline else {
                        throw TestSupportError("127.0.0.1:\(port) accepted no data for \(timeout).")
                    }
                    try await Task.sleep(for: .milliseconds(1))
                    continue
                }
                throw TestSupportError(
                    "Sending to 127.0.0.1:\(port) failed after \(offset) of \(bytes.count) bytes: "
                        + "\(errnoText())."
                )
            }
            offset += written
            deadline = ContinuousClock.now.advanced(by: timeout)
        }
    }

    /// Sends text exactly as given (write `\r\n` line ends yourself).
    /// - Parameter text: The text to send as UTF-8.
    /// - Throws: `TestSupportError` when the server has closed the connection or the write times out.
    public func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Sends a well-formed HTTP/1.1 request and reads its response.
    ///
    /// A `Host` field is added unless `headers` has one.
    /// - Parameters:
    ///   - method: The method, such as `GET` or `HEAD`.
    ///   - target: The request target, sent as it is (not percent-encoded for you).
    ///   - headers: Header fields in order; repeated names are sent repeatedly.
    ///   - body: The request body; a `Content-Length` is added when it is not empty.
    /// - Returns: The response.
    /// - Throws: `TestSupportError` when the server closes the connection first or does not answer in time.
    public func request(
        _ method: String = "GET",
        _ target: String,
        headers: KeyValuePairs<String, String> = [:],
        body: [UInt8] = []
    ) async throws -> RawHTTPResponse {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.key.lowercased() == "host" }) {
            head += "Host: 127.0.0.1:\(port)\r\n"
        }
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if !body.isEmpty {
            head += "Content-Length: \(body.count)\r\n"
        }
        try await send(Array((head + "\r\n").utf8) + body)
        return try await readResponse(method: method)
    }
}

#if canImport(Glibc)
private let closeSocket = Glibc.close
private let sendBytes = Glibc.send
#elseif canImport(Darwin)
private let closeSocket = Darwin.close
private let sendBytes = Darwin.send
private let MSG_NOSIGNAL: Int32 = 0  // Darwin has SO_NOSIGPIPE instead; tests run on Linux.
#endif

/// A connection belongs to the one task that made it.
@available(*, unavailable)
extension RawHTTPClient: Sendable {}
