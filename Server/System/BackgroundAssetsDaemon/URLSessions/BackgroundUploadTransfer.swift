/*
Abstract:
One attempt at a background upload over HTTP/1.1, plain or inside TLS: the file as the body, then the server's answer.
*/

import BackgroundAssetsIPC
import Foundation
import HTTPCore

/// Sends a staged file as a request's body and reads the answer.
///
/// An upload cannot resume: HTTP has no standard way to continue a body the server partly took.
/// Each attempt sends the whole file with its `Content-Length`; a failed attempt is repeated from
/// the start, as Apple's system repeats a background upload. Redirects and authentication
/// challenges are not followed: their answer is the upload's response.
///
/// The attempt runs on the calling thread and blocks; waits are bounded by the stall timeout and
/// cancellation is noticed within 100 ms.
struct BackgroundUploadTransfer {
    /// The server's answer.
    struct Answer: Sendable, Equatable {
        var response: BackgroundTaskResponse
        /// The body, at most ``BackgroundSessionEvent/maximumUploadResponseBytes``.
        var body: Data
    }

    let request: BackgroundTaskRequest
    /// The staged copy of the app's file.
    let body: URL
    let trust: TrustedCertificates?
    let stallTimeout: Duration
    let control: TransferControl
    /// Reports bytes sent: this piece, all so far, the file's length.
    let progress: @Sendable (Int64, Int64, Int64) -> Void

    /// How many bytes go between two progress reports, besides the last.
    static let reportEvery: Int64 = 128 * 1024

    /// Sends the file and reads the answer.
    /// - Throws: ``TransferError`` saying where the attempt failed and whether to retry.
    func run() throws(TransferError) -> Answer {
        let file = open(body.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else {
            throw TransferError(.local, .localFile(errno: errno), "the upload's copy of its file cannot be opened")
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { throw TransferError(.local, .localFile(errno: errno), "the upload's file cannot be read") }
        let length = Int64(status.st_size)
        let target = try RequestTarget(request.url)
        let connection = try connect(to: target)
        let stall = Self.milliseconds(stallTimeout)
        let requestHead = head(target, length: length)
        try TransferError.catching { () throws(HTTPError) in try connection.send(requestHead, timeoutMilliseconds: stall) }
        try sendBody(file, length: length, over: connection, stall: stall)
        let control = control
        let reader = HTTPResponseReader(connection: connection, stallMilliseconds: stall) { control.isCancelled }
        let head = try TransferError.catching { () throws(HTTPError) in try reader.readHead() }
        let data = try readBody(reader, head: head)
        var headers: [String: String] = [:]
        for field in head.fields { headers[field.name] = headers[field.name].map { "\($0), \(field.value)" } ?? field.value }
        return Answer(response: BackgroundTaskResponse(url: request.url, statusCode: head.status, headers: headers), body: data)
    }

    private func head(_ target: RequestTarget, length: Int64) -> [UInt8] {
        var head = "\(request.httpMethod.uppercased()) \(target.path) HTTP/1.1\r\nHost: \(target.hostField)\r\n"
            + "User-Agent: backgroundassetsd/1.0\r\nConnection: close\r\nContent-Length: \(length)\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where HTTPTransfer.isSendable(name: name, value: value) {
            head += "\(name): \(value)\r\n"
        }
        return Array((head + "\r\n").utf8)
    }

    private func sendBody(_ file: Int32, length: Int64, over connection: HTTPConnection, stall: Int32) throws(TransferError) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var sent: Int64 = 0
        var reported: Int64 = 0
        while sent < length {
            if control.isCancelled { throw TransferError(.transport, .cancelled, "the upload was stopped") }
            let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw TransferError(.local, .localFile(errno: count < 0 ? errno : EIO), "the upload's file ended before its \(length) bytes")
            }
            let piece = Array(chunk[0..<count])
            try TransferError.catching { () throws(HTTPError) in try connection.send(piece, timeoutMilliseconds: stall) }
            sent += Int64(count)
            if sent - reported >= Self.reportEvery || sent == length {
                progress(sent - reported, sent, length)
                reported = sent
            }
        }
        if length == 0 { progress(0, 0, 0) }
    }

    /// The answer's body, up to the limit: delimited by its length, its chunks, or the close.
    private func readBody(_ reader: HTTPResponseReader, head: HTTPResponseHead) throws(TransferError) -> Data {
        let limit = BackgroundSessionEvent.maximumUploadResponseBytes
        var data = Data()
        var decoder = head.isChunked ? ChunkedBodyDecoder() : nil
        var remaining = head.isChunked ? nil : try TransferError.catching { () throws(HTTPError) in try head.contentLength() }
        func hasMore() -> Bool {
            if let decoder { return !decoder.isComplete }
            return remaining.map { $0 > 0 } ?? true
        }
        while data.count < limit, hasMore() {
            let wanted = min(limit - data.count, Int(clamping: remaining ?? Int64(limit)))
            guard let piece = try TransferError.catching({ () throws(HTTPError) in try reader.receive(maximum: wanted) }) else { break }
            if decoder != nil {
                try decoder?.decode(piece) { (bytes: UnsafeRawBufferPointer) throws(TransferError) in data.append(contentsOf: bytes) }
            } else {
                data.append(contentsOf: piece)
                remaining = remaining.map { $0 - Int64(piece.count) }
            }
        }
        return data.count > limit ? data.prefix(limit) : data
    }

    private func connect(to target: RequestTarget) throws(TransferError) -> HTTPConnection {
        let timeout = Self.milliseconds(.seconds(10))
        let connection = try TransferError.catching { () throws(HTTPError) in
            try HTTPConnection(host: target.host, port: target.port, timeoutMilliseconds: timeout)
        }
        if target.isSecure {
            let context = if let trust { try trust.context() } else { try TrustedCertificates.systemOnly() }
            try TransferError.catching { () throws(HTTPError) in
                try connection.startTLS(context: context, host: target.host, port: target.port, timeoutMilliseconds: timeout)
            }
        }
        return connection
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000 + 1)
    }
}
