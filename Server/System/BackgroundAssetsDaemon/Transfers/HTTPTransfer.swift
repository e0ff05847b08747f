/*
Abstract:
One transfer attempt over HTTP/1.1, plain or inside TLS: resume with Range and If-Range, decide from the answer, stream the body.
*/

import Foundation
import HTTPCore
import TLS

/// Fetches one file into its staging file, resuming from the bytes already there when the server
/// proves they belong to the same version.
///
/// The rules follow the careful peers (BITS, Android's DownloadManager, curl):
/// - a resumed request sends `Range: bytes=N-`, `If-Range` with the stored validator and
///   `Accept-Encoding: identity`;
/// - a 206 is accepted only if its `Content-Range` starts at N, covers the rest of the file and
///   gives the complete length, and its validator is the stored one;
/// - a 200, a different validator, or bytes with no validator restart from zero: two versions of
///   a file are never spliced;
/// - a 416 whose complete length is exactly what is on disk means the file is complete;
/// - a body shorter than its declared length is a retryable error, never completion.
///
/// What a server answers cannot take more than the download allows: every redirect must pass the
/// ``RedirectPolicy``, and every body stays within its ``BodyBudget``, above the minimum rate
/// (``LowSpeedWatch``), and is the file as it is, not an encoding of it.
///
/// The attempt runs on the calling thread and blocks; waits are bounded by the stall timeout and
/// cancellation is noticed within 100 ms.
struct HTTPTransfer {
    let request: TransferRequest
    let control: TransferControl
    let events: @Sendable (TransferEvent) -> Void

    /// Runs the attempt to completion.
    /// - Returns: The completed file's length and validator.
    /// - Throws: ``TransferError`` saying where it failed and whether to retry.
    func run() throws(TransferError) -> TransferResult {
        var url = request.url
        var validator = request.validator
        var offset = request.durableLength
        let part = try PartFile(url: request.partFile, durableLength: offset)
        offset = part.length
        if offset > 0, validator == nil {
            try restart(part, &offset, &validator, reason: "the bytes on disk have no validator to resume with")
        }
        if offset > 0, let resumable = request.bodyObserver?.resumableOffset(upTo: offset), resumable < offset {
            if resumable > 0 {
                // What arrived after the observer's last durable state is fetched again.
                try part.truncate(to: resumable)
                offset = resumable
            } else {
                try restart(part, &offset, &validator, reason: "the bytes before \(offset) were stored outside the staging file, and are not there any more")
            }
        }

        var redirects = 0
        var restarts = 0
        while true {
            let (connection, head, firstReader, origin) = try exchange(url: url, offset: offset, validator: validator)
            control.noteDescriptorsOpened()
            var reader = firstReader

            switch head.status {
            case 301, 302, 303, 307, 308:
                redirects += 1
                let next = try request.redirectPolicy.follow(head, from: url, hops: redirects)
                events(.redirected(from: url, to: next, status: head.status))
                if head.status == 301 || head.status == 308 { events(.movedPermanently(to: next)) }
                url = next
                continue
            case 401:
                throw TransferError(.remote, .authenticationRequired(realm: Self.realm(of: head)),
                                    "\(url.absoluteString) requires authentication")
            case 416:
                let contentRange = head["Content-Range"].flatMap(ContentRange.init(parsing:))
                if offset > 0, let contentRange, contentRange.range == nil, contentRange.completeLength == offset {
                    try checkLength(offset)
                    try part.sync()
                    events(.checkpoint(length: offset, validator: validator))
                    return TransferResult(length: offset, validator: validator, finalURL: url)
                }
                restarts += 1
                guard restarts <= 2 else { throw Self.status(head, url) }
                try restart(part, &offset, &validator, reason: "the server cannot serve the rest of the file (416)")
                continue
            case 200:
                if offset > 0 {
                    let answered = ResumeValidator(of: head)
                    let reason = if let validator, let answered, answered != validator {
                        "the file's version changed (\(validator.ifRangeValue) became \(answered.ifRangeValue))"
                    } else {
                        "the server ignored Range and sent the whole file instead of the rest"
                    }
                    try restart(part, &offset, &validator, reason: reason)
                }
                validator = ResumeValidator(of: head)
                let length = head.isChunked ? nil : try TransferError.catching { () throws(HTTPError) in try head.contentLength() }
                return try transferBody(over: connection, origin: origin, reader: &reader, head: head, part: part,
                                        from: offset, total: length, validator: validator, url: url)
            case 206:
                let contentRange = head["Content-Range"].flatMap(ContentRange.init(parsing:))
                guard offset > 0, let contentRange, let range = contentRange.range,
                      let total = contentRange.completeLength, range.lowerBound == offset, range.upperBound == total - 1,
                      ResumeValidator(of: head) == validator else {
                    restarts += 1
                    guard restarts <= 2 else {
                        throw TransferError(.remote, .malformedResponse, "\(url.absoluteString) keeps answering with a partial response that does not fit")
                    }
                    try restart(part, &offset, &validator, reason: "the partial response does not continue the bytes on disk")
                    continue
                }
                return try transferBody(over: connection, origin: origin, reader: &reader, head: head, part: part,
                                        from: offset, total: total, validator: validator, url: url)
            default:
                throw Self.status(head, url)
            }
        }
    }

    // Fractions count: a stall timeout of 0.5 s is 500 ms, not the 1 ms its whole seconds would give.
    private var stallMilliseconds: Int32 { Self.milliseconds(request.stallTimeout) }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// Sends the request and reads the response's head, on a kept-alive connection when the pool
    /// has one: a connection the server closed while it idled fails before any answer, and the
    /// request is sent once more on a new connection.
    /// - Returns: The connection, the head, its reader, and the origin the pool keeps the connection under.
    private func exchange(
        url: URL, offset: Int64, validator: ResumeValidator?
    ) throws(TransferError) -> (HTTPConnection, HTTPResponseHead, HTTPResponseReader, origin: String) {
        let target = try RequestTarget(url)
        let origin = target.origin
        // Credentials go to the origin they were given for, never to where a redirect leads.
        let firstOrigin = url == request.url ? origin : try? RequestTarget(request.url).origin
        let bytes = requestBytes(target, offset: offset, validator: validator, sendsCredentials: origin == firstOrigin)
        func ask(_ connection: HTTPConnection) throws(TransferError) -> (HTTPConnection, HTTPResponseHead, HTTPResponseReader, origin: String) {
            let control = control
            let reader = HTTPResponseReader(
                connection: connection, stallMilliseconds: stallMilliseconds,
                capacity: HTTPResponseReader.capacity(forBodyOf: request.expectedLength.map { $0 - offset })
            ) { control.isCancelled }
            let head = try TransferError.catching { () throws(HTTPError) in
                try connection.send(bytes, timeoutMilliseconds: stallMilliseconds)
                return try reader.readHead()
            }
            return (connection, head, reader, origin)
        }
        if let kept = request.connections?.take(origin: origin) {
            do throws(TransferError) {
                return try ask(kept)
            } catch {
                guard case .connectionLost = error.kind else { throw error }
            }
        }
        return try ask(try connect(to: target))
    }

    /// Receives a body, gives its connection back when the response ended cleanly, reports the
    /// body's end, then syncs the end, in that order: while the end syncs, the queue may give the
    /// transfer's slot, and the pool its connection, to the next download.
    /// - Parameter total: The body's declared length: a body that declares none and is not chunked
    ///   ends with the connection, which then cannot be kept.
    private func transferBody(
        over connection: HTTPConnection, origin: String, reader: inout HTTPResponseReader, head: HTTPResponseHead,
        part: PartFile, from start: Int64, total: Int64?, validator: ResumeValidator?, url: URL
    ) throws(TransferError) -> TransferResult {
        var offset = start
        let body = try receiveBody(reader: &reader, head: head, part: part, offset: &offset,
                                   total: total, validator: validator, url: url)
        keepAlive(connection, after: head, reader: reader, delimited: total != nil || head.isChunked, origin: origin)
        events(.bodyEnded)
        return try finishBody(body, part: part, offset: offset, total: total, validator: validator, url: url)
    }

    /// Returns a connection to the pool when its response ended cleanly at a message boundary and
    /// the server did not ask to close it.
    private func keepAlive(
        _ connection: HTTPConnection, after head: HTTPResponseHead, reader: HTTPResponseReader, delimited: Bool, origin: String
    ) {
        guard let pool = request.connections, delimited, !reader.hasBufferedBytes,
              !(head["Connection"]?.lowercased().contains("close") ?? false)
        else { return }
        pool.put(connection, origin: origin)
    }

    private func connect(to target: RequestTarget) throws(TransferError) -> HTTPConnection {
        let timeout = Self.milliseconds(request.connectTimeout)
        let connection = try TransferError.catching { () throws(HTTPError) in
            try HTTPConnection(host: target.host, port: target.port, timeoutMilliseconds: timeout)
        }
        if target.isSecure {
            let context = if let trust = request.trust { try trust.context() } else { try TrustedCertificates.systemOnly() }
            try TransferError.catching { () throws(HTTPError) in
                try connection.startTLS(context: context, host: target.host, port: target.port, timeoutMilliseconds: timeout)
            }
        }
        return connection
    }

    private func requestBytes(_ target: RequestTarget, offset: Int64, validator: ResumeValidator?, sendsCredentials: Bool) -> [UInt8] {
        var head = "GET \(target.path) HTTP/1.1\r\nHost: \(target.hostField)\r\nUser-Agent: backgroundassetsd/1.0\r\n"
            + "Accept-Encoding: identity\r\n" + (request.connections == nil ? "Connection: close\r\n" : "")
        if offset > 0, let validator {
            head += "Range: bytes=\(offset)-\r\nIf-Range: \(validator.ifRangeValue)\r\n"
        }
        if sendsCredentials, let credential = request.credential { head += "Authorization: \(credential.authorization)\r\n" }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where Self.isSendable(name: name, value: value) {
            let lowered = name.lowercased()
            if request.credential != nil, lowered == "authorization" { continue }
            // As curl does since CVE-2022-27776: a redirect to another origin does not take the
            // client's credentials or cookies along.
            if !sendsCredentials, Self.credentialFields.contains(lowered) { continue }
            head += "\(name): \(value)\r\n"
        }
        return Array((head + "\r\n").utf8)
    }

    /// The client's fields that carry credentials, sent only to the download's own origin.
    private static let credentialFields: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Fields the engine sets itself, which a client's request must not override.
    private static let reservedFields: Set<String> = [
        "host", "range", "if-range", "accept-encoding", "connection", "content-length", "transfer-encoding",
        "te", "upgrade", "keep-alive", "proxy-connection", "trailer", "expect",
    ]

    /// Whether a client's header field can be sent as is: a token name, no line break or NUL in
    /// the value (which would let a client smuggle a second request), and not an engine field.
    static func isSendable(name: String, value: String) -> Bool {
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return !name.isEmpty && name.allSatisfy(tokenCharacters.contains)
            && !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            && !reservedFields.contains(name.lowercased())
    }

    private func restart(_ part: PartFile, _ offset: inout Int64, _ validator: inout ResumeValidator?, reason: String) throws(TransferError) {
        try part.truncateToZero()
        try part.sync()
        offset = 0
        validator = nil
        events(.checkpoint(length: 0, validator: nil))
        events(.restartedFromZero(reason: reason))
    }

    func checkLength(_ length: Int64) throws(TransferError) {
        if let expected = request.expectedLength, expected != length {
            throw TransferError(.remote, .sizeMismatch(expected: expected, actual: length),
                                "\(request.url.absoluteString) is \(length) bytes but the download declared \(expected)")
        }
    }

    private static func realm(of head: HTTPResponseHead) -> String? {
        guard let value = head["WWW-Authenticate"], let start = value.range(of: "realm=\"") else { return nil }
        return value[start.upperBound...].split(separator: "\"").first.map(String.init)
    }

    private static func status(_ head: HTTPResponseHead, _ url: URL) -> TransferError {
        var retryAfter: Duration?
        if let value = head["Retry-After"] {
            if let seconds = Int64(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
                retryAfter = .seconds(seconds)
            } else if let date = HTTPDate.parse(value) {
                retryAfter = .seconds(max(0, date - Int64(time(nil))))
            }
        }
        return TransferError(.remote, .httpStatus(head.status), "\(url.absoluteString) answered \(head.status)", retryAfter: retryAfter)
    }
}
