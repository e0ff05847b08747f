/*
Abstract:
Serves a catalog file: validators, conditional requests, byte ranges, and a body sent zero-copy or through the fault knobs.
*/

import DevicePlatform
import Foundation
import HTTPCore
import ServerRuntime

extension Connection {
    /// Answers a GET or HEAD for an open file with 200, 206, 304, 412 or 416.
    ///
    /// HEAD gets exactly the fields GET would, including 206 and `Content-Range` for a range request, as Go's
    /// `http.ServeContent` and nginx do; only the body is left out. 304, 412 and 416 carry the same validators
    /// (`ETag`, `Last-Modified`) as a 200, so a client can tell which version it was compared against.
    func respond(to request: HTTPRequestHead, path: String, file: borrowing OpenedFile,
                 keepAlive: Bool) -> Disposition {
        let validators = file.validators
        let outcome = Preconditions.evaluate(request.headers, validators: validators)
        var evaluation = ByteRangeRequest.Evaluation.full
        if case .proceed(rangeAllowed: true) = outcome, let value = request.headers.singleValue(for: "range"),
           let ranges = ByteRangeRequest(parsing: value) {
            evaluation = ranges.evaluate(size: file.size)
        }
        let status = switch (outcome, evaluation) {
        case (.notModified, _): 304
        case (.preconditionFailed, _): 412
        case (_, .unsatisfiable): 416
        case (_, .partial): 206
        case (_, .full): 200
        }
        var head = commonHead(status: status, request: request, keepAlive: keepAlive)
        head.add("ETag", validators.entityTag.headerValue)
        head.add("Last-Modified", lastModifiedField.format(validators.lastModified))
        if status == 304 {
            return finish(request, head: head, status: status, keepAlive: keepAlive)
        }
        head.add("Accept-Ranges", "bytes")
        guard status == 200 || status == 206 else {
            if status == 416 { head.add("Content-Range", "bytes */\(file.size)") }
            head.add("Content-Length", "0")
            return finish(request, head: head, status: status, keepAlive: keepAlive)
        }
        let range: ByteRange
        if case .partial(let part) = evaluation {
            range = part
            head.add("Content-Range", "bytes \(part.first)-\(part.last)/\(file.size)")
        } else {
            range = ByteRange(first: 0, last: file.size - 1)
        }
        head.add("Content-Type", ContentType.forPath(path))
        head.add("Content-Length", String(range.count))
        guard request.method == "GET", range.count > 0 else {
            return finish(request, head: head, status: status, keepAlive: keepAlive)
        }
        return sendBody(request, head: head, status: status, file: file, range: range, path: path, keepAlive: keepAlive)
    }

    /// Sends a head with no body.
    private func finish(_ request: HTTPRequestHead, head: HTTPResponseHead, status: Int,
                        keepAlive: Bool) -> Disposition {
        var ignored: Int64 = 0
        let sent = (try? stream.send(head.serialized(), stallTimeout: context.sendStallTimeout, sent: &ignored)) != nil
        log(request, status: status, bytes: 0)
        return sent ? (keepAlive ? .keepAlive : .close) : .abort
    }

    /// Sends the head and `range` of the file, applying `--drop-after`, `--throttle` and `--corrupt`.
    private func sendBody(_ request: HTTPRequestHead, head: HTTPResponseHead, status: Int, file: borrowing OpenedFile,
                          range: ByteRange, path: String, keepAlive: Bool) -> Disposition {
        let faults = context.configuration.faults
        var limit = range.count
        var cut = false
        if let dropAfter = faults.dropAfterBytes, dropAfter < limit {
            limit = dropAfter
            cut = true
        }
        let corrupt = context.faults.corrupts(path)
        var sent: Int64 = 0
        var failed = false
        do {
            var headSent: Int64 = 0
            try stream.send(head.serialized(), stallTimeout: context.sendStallTimeout, more: limit > 0, sent: &headSent)
            #if os(Linux)
            let zeroCopy = faults.throttleBytesPerSecond == nil && !corrupt
            #else
            let zeroCopy = false
            #endif
            if zeroCopy {
                try stream.sendFile(file.descriptor, offset: range.first, count: limit,
                                    stallTimeout: context.sendStallTimeout, sent: &sent)
            } else {
                try sendCopying(file: file.descriptor, from: range.first, count: limit, corrupt: corrupt,
                                rate: faults.throttleBytesPerSecond, sent: &sent)
            }
        } catch {
            failed = true
        }
        log(request, status: status, bytes: sent)
        if failed || cut { return .abort }
        return keepAlive ? .keepAlive : .close
    }

    /// Copies the file through a buffer, which the throttle and corruption knobs need.
    private func sendCopying(file: Int32, from start: Int64, count: Int64, corrupt: Bool, rate: Int64?,
                             sent: inout Int64) throws(SocketStream.Failure) {
        let chunk = rate.map(TokenBucket.chunkSize(forRate:)) ?? 256 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var bucket = rate.map { TokenBucket(bytesPerSecond: $0, capacity: Int64(chunk), now: MonotonicClock.now()) }
        var offset = start
        let end = start + count
        while offset < end {
            let wanted = Int(min(Int64(chunk), end - offset))
            let read = pread(file, buffer.baseAddress, wanted, off_t(offset))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw .closed }  // the file shrank: the promised length cannot be sent
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<read])
            if corrupt { Corruption.apply(to: bytes, fileOffset: offset) }
            if var current = bucket {
                let wait = current.reserve(read, now: MonotonicClock.now())
                bucket = current
                if wait > 0, !MonotonicClock.sleep(nanoseconds: wait, shouldStop: { context.isForcedToStop }) {
                    throw .shuttingDown
                }
            }
            try stream.send(UnsafeRawBufferPointer(bytes), stallTimeout: context.sendStallTimeout, sent: &sent)
            offset += Int64(read)
        }
    }
}
