/*
Abstract:
How RawHTTPClient reads responses: the head, bodies by Content-Length or chunks, and the server's close.
*/

import BackgroundAssetsIPC

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RawHTTPClient {
    /// Reads one response from the connection.
    /// - Parameter method: The request's method: a response to HEAD has no body whatever its headers say.
    /// - Returns: The response; `isTruncated` is set when the connection closed inside the body.
    /// - Throws: `TestSupportError` when the connection closes before a complete head, or a read times out.
    public func readResponse(method: String = "GET") async throws -> RawHTTPResponse {
        while true {
            var response = try await readHead()
            if (100..<200).contains(response.statusCode) {
                continue  // Interim responses precede the final one.
            }
            let noBody = method.uppercased() == "HEAD" || response.statusCode == 204 || response.statusCode == 304
            if noBody {
                return response
            }
            if response.value(forHeader: "Transfer-Encoding")?.lowercased().contains("chunked") == true {
                (response.body, response.isTruncated) = try await readChunkedBody()
            } else if let lengthText = response.value(forHeader: "Content-Length") {
                guard let length = Int(lengthText), length >= 0 else {
                    throw TestSupportError("The response has an invalid Content-Length '\(lengthText)'.")
                }
                (response.body, response.isTruncated) = try await readBody(count: length)
            } else {
                (response.body, response.isTruncated) = (try await readUntilClosed(), false)
            }
            return response
        }
    }

    /// Waits until the server closes the connection, discarding anything it sends meanwhile.
    /// - Parameter timeout: How long to wait; by default, as long as a poll.
    /// - Returns: True when the server closed (or reset) the connection, false when it was still open at the deadline.
    public func waitForClose(timeout: Duration = defaultPollTimeout) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            switch receiveAvailable() {
            case .received:
                buffer.removeAll()
            case .closed, .failed:
                return true
            case .wouldBlock:
                guard ContinuousClock.now < deadline else { return false }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// Reads until the server closes the connection.
    /// - Returns: Everything not yet consumed by an earlier read.
    /// - Throws: `TestSupportError` when a read times out first.
    public func readUntilClosed() async throws -> [UInt8] {
        while try await fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func readHead() async throws -> RawHTTPResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            end = firstIndex(of: separator)
            if end == nil, try await !fill() {
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

    private func readBody(count: Int) async throws -> ([UInt8], Bool) {
        while buffer.count < count {
            if try await !fill() {
                defer { buffer.removeAll() }
                return (buffer, true)
            }
        }
        let body = Array(buffer[..<count])
        buffer.removeFirst(count)
        return (body, false)
    }

    private func readChunkedBody() async throws -> ([UInt8], Bool) {
        var body: [UInt8] = []
        while true {
            guard let sizeLine = try await readLine() else { return (body, true) }
            let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: " "), radix: 16) else {
                throw TestSupportError("The response has a malformed chunk size line '\(sizeLine)'.")
            }
            if size == 0 {
                while let trailer = try await readLine(), !trailer.isEmpty {}
                return (body, false)
            }
            let (chunk, truncated) = try await readBody(count: size + 2)
            body += chunk.prefix(size)
            if truncated { return (body, true) }
        }
    }

    private func readLine() async throws -> String? {
        let newline: [UInt8] = Array("\r\n".utf8)
        while true {
            if let end = firstIndex(of: newline) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + newline.count)
                return line
            }
            if try await !fill() { return nil }
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

    /// Appends what the socket has to the buffer, waiting up to `timeout` for something to arrive.
    /// - Returns: False when the server has closed (or reset) the connection.
    private func fill() async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            switch receiveAvailable() {
            case .received:
                return true
            case .closed:
                return false
            case .failed(let code):
                throw TestSupportError("Reading from 127.0.0.1:\(port) failed: \(errnoText(code)).")
            case .wouldBlock:
                guard ContinuousClock.now < deadline else {
                    throw TestSupportError("127.0.0.1:\(port) sent nothing for \(timeout).")
                }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    private enum Receipt {
        case received, closed, wouldBlock, failed(Int32)
    }

    /// Moves whatever the socket holds into the buffer without waiting.
    private func receiveAvailable() -> Receipt {
        guard !peerClosed, descriptor >= 0 else { return .closed }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                buffer += chunk[..<count]
                return .received
            }
            if count == 0 || errno == ECONNRESET {
                peerClosed = true
                return .closed
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }
}

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
