/*
Abstract:
A tiny blocking HTTP/1.1 client on a POSIX socket, for exact header control and malformed input.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to a loopback HTTP server that sends exactly the bytes a test gives it.
///
/// URLSession normalises requests; this client does not, so tests can send malformed or
/// oversized requests, send slowly, reuse one keep-alive connection, and see when the server
/// closes it. Every call blocks for at most the connection's timeout.
public final class RawHTTPClient {
    /// The server's port on 127.0.0.1.
    public let port: Int
    /// How long one read or write may block before the call throws.
    public private(set) var timeout: Duration

    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var peerClosed = false

    /// Connects to `127.0.0.1:port`.
    /// - Parameters:
    ///   - port: The server's port.
    ///   - timeout: How long one read or write may block.
    /// - Throws: `TestSupportError` when the connection is refused.
    public init(port: Int, timeout: Duration = .seconds(5)) throws {
        self.port = port
        self.timeout = timeout
        descriptor = try SocketAddress.loopbackSocket()
        setTimeout(timeout)
        var address = SocketAddress.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            _ = closeSocket(descriptor)
            descriptor = -1
            throw TestSupportError("Could not connect to 127.0.0.1:\(port): \(reason). Is the server running?")
        }
    }

    deinit {
        close()
    }

    /// Whether this side still has the connection open (the server may have closed its side).
    public var isOpen: Bool {
        descriptor >= 0
    }

    /// Changes how long one read or write may block.
    /// - Parameter timeout: The new limit.
    public func setTimeout(_ timeout: Duration) {
        self.timeout = timeout
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        if value.tv_sec == 0 && value.tv_usec == 0 {
            value.tv_usec = 1
        }
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
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
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                sendBytes(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw TestSupportError(
                    "Sending to 127.0.0.1:\(port) failed after \(offset) of \(bytes.count) bytes: "
                        + "\(String(cString: strerror(errno)))."
                )
            }
            offset += written
        }
    }

    /// Sends text exactly as given (write `\r\n` line ends yourself).
    /// - Parameter text: The text to send as UTF-8.
    /// - Throws: `TestSupportError` when the server has closed the connection or the write times out.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
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
    ) throws -> RawHTTPResponse {
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
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse(method: method)
    }

    // MARK: - Receiving

    /// Reads one response from the connection.
    /// - Parameter method: The request's method: a response to HEAD has no body whatever its headers say.
    /// - Returns: The response; `isTruncated` is set when the connection closed inside the body.
    /// - Throws: `TestSupportError` when the connection closes before a complete head, or a read times out.
    public func readResponse(method: String = "GET") throws -> RawHTTPResponse {
        while true {
            var response = try readHead()
            if (100..<200).contains(response.statusCode) {
                continue  // Interim responses precede the final one.
            }
            let noBody = method.uppercased() == "HEAD" || response.statusCode == 204 || response.statusCode == 304
            if noBody {
                return response
            }
            if response.value(forHeader: "Transfer-Encoding")?.lowercased().contains("chunked") == true {
                (response.body, response.isTruncated) = try readChunkedBody()
            } else if let lengthText = response.value(forHeader: "Content-Length") {
                guard let length = Int(lengthText), length >= 0 else {
                    throw TestSupportError("The response has an invalid Content-Length '\(lengthText)'.")
                }
                (response.body, response.isTruncated) = try readBody(count: length)
            } else {
                (response.body, response.isTruncated) = (try readUntilClosed(), false)
            }
            return response
        }
    }

    /// Waits until the server closes the connection, discarding anything it sends meanwhile.
    /// - Parameter timeout: How long to wait.
    /// - Returns: True when the server closed (or reset) the connection, false when it was still open at the deadline.
    public func waitForClose(timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let saved = self.timeout
        defer { setTimeout(saved) }
        while !peerClosed {
            let remaining = deadline - clock.now
            guard remaining > .zero else { return false }
            setTimeout(min(remaining, .milliseconds(200)))
            do {
                _ = try fill()
            } catch {
                continue  // A read timed out; check the deadline again.
            }
            buffer.removeAll()
        }
        return true
    }

    /// Reads until the server closes the connection.
    /// - Returns: Everything not yet consumed by an earlier read.
    /// - Throws: `TestSupportError` when a read times out first.
    public func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func readHead() throws -> RawHTTPResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            end = firstIndex(of: separator)
            if end == nil, try !fill() {
                if buffer.isEmpty {
                    throw TestSupportError("127.0.0.1:\(port) closed the connection without sending a response.")
                }
                throw TestSupportError(
                    "127.0.0.1:\(port) closed the connection inside a response head: \(String(decoding: buffer, as: UTF8.self))"
                )
            }
        }
        let headText = String(decoding: buffer[..<end!], as: UTF8.self)
        buffer.removeFirst(end! + separator.count)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw TestSupportError("The response's status line is malformed: '\(statusLine)'.")
        }
        let fields = try lines.map { line -> HTTPHeaderField in
            guard let colon = line.firstIndex(of: ":") else {
                throw TestSupportError("The response has a header line without a colon: '\(line)'.")
            }
            return HTTPHeaderField(
                name: String(line[..<colon]),
                value: line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            )
        }
        return RawHTTPResponse(
            version: String(parts[0]), statusCode: status,
            reasonPhrase: parts.count > 2 ? String(parts[2]) : "",
            headerFields: fields, body: [], isTruncated: false
        )
    }

    private func readBody(count: Int) throws -> ([UInt8], Bool) {
        while buffer.count < count {
            if try !fill() {
                defer { buffer.removeAll() }
                return (buffer, true)
            }
        }
        let body = Array(buffer[..<count])
        buffer.removeFirst(count)
        return (body, false)
    }

    private func readChunkedBody() throws -> ([UInt8], Bool) {
        var body: [UInt8] = []
        while true {
            guard let sizeLine = try readLine() else { return (body, true) }
            let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: " "), radix: 16) else {
                throw TestSupportError("The response has a malformed chunk size line '\(sizeLine)'.")
            }
            if size == 0 {
                while let trailer = try readLine(), !trailer.isEmpty {}
                return (body, false)
            }
            let (chunk, truncated) = try readBody(count: size + 2)
            body += chunk.prefix(size)
            if truncated { return (body, true) }
        }
    }

    private func readLine() throws -> String? {
        let newline: [UInt8] = Array("\r\n".utf8)
        while true {
            if let end = firstIndex(of: newline) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + newline.count)
                return line
            }
            if try !fill() { return nil }
        }
    }

    private func firstIndex(of pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start] == pattern[0] {
            if buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
                return start
            }
        }
        return nil
    }

    /// Appends what the socket has to the buffer.
    /// - Returns: False when the server has closed (or reset) the connection.
    private func fill() throws -> Bool {
        guard !peerClosed, descriptor >= 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count == 0 || errno == ECONNRESET {
                peerClosed = true
                return false
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw TestSupportError("127.0.0.1:\(port) sent nothing for \(timeout).")
            }
            throw TestSupportError("Reading from 127.0.0.1:\(port) failed: \(String(cString: strerror(errno))).")
        }
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

extension String {
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var view = Substring(self)
        while let first = view.first, characters.contains(first) { view.removeFirst() }
        while let last = view.last, characters.contains(last) { view.removeLast() }
        return String(view)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> String {
        String(self).trimmingCharacters(in: characters)
    }
}
