/*
Abstract:
Streams a response body into the staging file: paced by the bandwidth limit, synced at checkpoints.
*/

import Foundation
import HTTPCore

extension HTTPTransfer {
    /// Writes the body to `part` from `offset` on, until `total` bytes are on disk (or, with no
    /// declared length, until the chunked body ends or the server closes).
    ///
    /// Whatever happens, the bytes written so far are synced and reported as a checkpoint before
    /// returning or throwing, so the next attempt resumes from them instead of from the last
    /// periodic checkpoint. Periodic checkpoints are synced by a ``CheckpointSyncer`` while the
    /// body keeps arriving.
    func receiveBody(
        reader: inout ResponseReader, head: HTTPResponseHead, part: PartFile, offset: inout Int64,
        total: Int64?, validator: ResumeValidator?, url: URL
    ) throws(TransferError) -> TransferResult {
        if let total { try checkLength(total) }
        events(.began(offset: offset, expectedLength: total))
        // A new version's validator is recorded before its first byte lands: after a crash of the
        // service the queue trusts the staging file's length, which must never pair the bytes
        // of one version with the validator of another.
        if offset == 0, validator != nil { events(.checkpoint(length: 0, validator: validator)) }
        if let total { try part.reserve(totalLength: total) }

        var pacer = Pacer(control: control)
        var chunked = head.isChunked ? ChunkedBodyDecoder() : nil
        var checkpoint = (length: offset, time: MonotonicClock.now())
        let checkpointNanoseconds = UInt64(request.checkpointInterval.components.seconds) * 1_000_000_000
            + UInt64(request.checkpointInterval.components.attoseconds / 1_000_000_000)
        var lastProgress = checkpoint.time
        // Started at the first checkpoint: a small file is done before one is due.
        var syncer: CheckpointSyncer?

        do throws(TransferError) {
            while true {
                if let total, chunked == nil, offset >= total { break }
                var maximum = pacer.pieceSize(default: reader.capacity)
                if let total, chunked == nil { maximum = Int(min(Int64(maximum), total - offset)) }
                guard let piece = try reader.receive(maximum: maximum) else {
                    // A close ends the body only when nothing declared its length.
                    guard total == nil, chunked == nil else {
                        throw TransferError(.transport, .connectionLost,
                                            "the connection closed after \(offset) of \(total.map(String.init) ?? "?") bytes")
                    }
                    break
                }
                try pacer.wait(for: piece.count)
                if chunked != nil {
                    try chunked!.decode(piece) { data throws(TransferError) in
                        try part.write(data, at: offset)
                        offset += Int64(data.count)
                    }
                    if chunked!.isComplete { break }
                } else {
                    try part.write(piece, at: offset)
                    offset += Int64(piece.count)
                }

                let now = MonotonicClock.now()
                if offset - checkpoint.length >= request.checkpointBytes || now - checkpoint.time >= checkpointNanoseconds {
                    if syncer == nil { syncer = CheckpointSyncer(part: part, validator: validator, events: events) }
                    try syncer?.checkpoint(length: offset)
                    checkpoint = (offset, now)
                }
                if now - lastProgress >= 50_000_000 {
                    lastProgress = now
                    events(.progress(totalWritten: offset, expectedLength: total))
                }
            }
        } catch {
            // The checkpoints asked for are reported before the last one, never after it.
            try? syncer?.finish()
            if case .localFile = error.kind { throw error }
            if (try? part.sync()) != nil, offset != checkpoint.length {
                events(.checkpoint(length: offset, validator: validator))
            }
            throw error
        }

        try syncer?.finish()
        try part.sync()
        events(.checkpoint(length: offset, validator: validator))
        events(.progress(totalWritten: offset, expectedLength: total))
        try checkLength(offset)
        return TransferResult(length: offset, validator: validator, finalURL: url)
    }
}

/// Paces reads to the control's current bandwidth limit, picking up a new limit immediately.
private struct Pacer {
    let control: TransferControl
    private var bucket: TokenBucket?
    private var rate: Int64?

    init(control: TransferControl) {
        self.control = control
    }

    /// The most bytes to read next: small pieces when limited, so the pace stays smooth.
    mutating func pieceSize(default size: Int) -> Int {
        let current = control.bytesPerSecond
        if current != rate {
            rate = current
            bucket = current.map { TokenBucket(bytesPerSecond: $0, capacity: max(1, $0 / 10), now: MonotonicClock.now()) }
        }
        return rate.map { min(size, TokenBucket.chunkSize(forRate: $0)) } ?? size
    }

    /// Waits until `count` bytes fit the limit; returns at once when there is none.
    mutating func wait(for count: Int) throws(TransferError) {
        guard var bucket else { return }
        let delay = bucket.reserve(count, now: MonotonicClock.now())
        self.bucket = bucket
        guard delay > 0 else { return }
        let control = control
        if !MonotonicClock.sleep(nanoseconds: delay, shouldStop: { control.isCancelled }) {
            throw TransferError(.transport, .cancelled, "the transfer was stopped")
        }
    }
}
