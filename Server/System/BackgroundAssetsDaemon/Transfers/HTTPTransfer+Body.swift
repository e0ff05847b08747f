/*
Abstract:
Streams a response body into the staging file: within its budget, at a minimum rate, paced by the bandwidth limit, synced at checkpoints.
*/

import BackgroundAssetsIPC
import DevicePlatform
import Foundation
import HTTPCore
import ServerRuntime

extension HTTPTransfer {
    /// Writes the body to `part` from `offset` on, until `total` bytes are on disk (or, with no
    /// declared length, until the chunked body ends or the server closes).
    ///
    /// Before the first byte, the body must be the file as it is (no coding the engine did not ask
    /// for) and fit its ``BodyBudget``; while it arrives, no byte past the budget's limit is written,
    /// and a server slower than the minimum rate for a whole window (``LowSpeedWatch``) ends the
    /// attempt.
    ///
    /// It returns once the last byte is written, leaving the sync of the end to
    /// ``finishBody(_:part:offset:total:validator:url:)``, which the caller runs after giving the
    /// connection back and reporting ``TransferEvent/bodyEnded``: while the end syncs, the queue may
    /// give the transfer's slot, and the pool its connection, to the next download. An attempt that
    /// throws has synced the bytes written so far and reported them as a checkpoint, so the next
    /// attempt resumes from them instead of from the last periodic checkpoint, and has given back
    /// the disk reserved beyond them. Periodic checkpoints are synced by a ``CheckpointSyncer``
    /// while the body keeps arriving.
    func receiveBody(
        reader: inout HTTPResponseReader, head: HTTPResponseHead, part: PartFile, offset: inout Int64,
        total: Int64?, validator: ResumeValidator?, url: URL
    ) throws(TransferError) -> ReceivedBody {
        if let total { try checkLength(total) }
        if let coding = head.unrequestedCoding {
            throw TransferError(.remote, .unrequestedCoding(coding),
                "\(url.absoluteString) answered with \(coding) although the request asked for the file as it is "
                + "(Accept-Encoding: identity); saving those bytes would save the encoding, not the file. "
                + "Configure the server to send this path without compression")
        }
        let budget = try BodyBudget(declared: request.expectedLength, announced: total, written: offset,
                                    available: { part.availableBytes }, file: part.url)
        request.bodyObserver?.bodyBegan(at: offset, partFile: part.descriptor)
        events(.began(offset: offset, expectedLength: total))
        // A new version's validator is recorded before its first byte lands: after a crash of the
        // service the queue trusts the staging file's length, which must never pair the bytes
        // of one version with the validator of another.
        if offset == 0, validator != nil { events(.checkpoint(length: 0, validator: validator)) }
        // An observer may store the bytes itself (a pack archive's files, reserved by their admission):
        // the staging file would reserve blocks it never fills.
        if let reservation = budget.reservation, request.bodyObserver == nil { try part.reserve(totalLength: reservation) }

        var pacer = Pacer(control: control)
        var chunked = head.isChunked ? ChunkedBodyDecoder() : nil
        var checkpoint = (length: offset, time: MonotonicClock.now())
        var speed = LowSpeedWatch(bytesPerSecond: request.lowSpeedLimit, window: request.lowSpeedTime,
                                  bytes: offset, now: checkpoint.time)
        let checkpointNanoseconds = UInt64(clamping: request.checkpointInterval.components.seconds) * 1_000_000_000
            + UInt64(clamping: request.checkpointInterval.components.attoseconds / 1_000_000_000)
        var lastProgress = checkpoint.time
        // Started at the first checkpoint: a small file is done before one is due.
        var syncer: CheckpointSyncer?
        // Bytes an observer stored itself are a hole the staging file must still span before a
        // checkpoint or the attempt's end: the next attempt resumes from the file's length, and the
        // observer (a pack archive's arrival) can continue only from the byte it stopped at.
        var leftHoles = false

        do throws(TransferError) {
            // Every byte goes through here: none past the budget is ever written.
            func write(_ bytes: UnsafeRawBufferPointer) throws(TransferError) {
                guard Int64(bytes.count) <= budget.limit - offset else {
                    throw budget.exceeded(at: offset + Int64(bytes.count), url: url)
                }
                // Bytes an observer stored itself (a pack archive's files) are a hole in the staging
                // file, which keeps the rest: the end of a header before them, the start of a trailer after.
                let stored = (try request.bodyObserver?.bodyArrived(bytes) ?? 0..<0).clamped(to: 0..<bytes.count)
                if stored.isEmpty {
                    try part.write(bytes, at: offset)
                } else {
                    leftHoles = true
                    try part.write(UnsafeRawBufferPointer(rebasing: bytes[..<stored.lowerBound]), at: offset)
                    try part.write(UnsafeRawBufferPointer(rebasing: bytes[stored.upperBound...]),
                                   at: offset + Int64(stored.upperBound))
                }
                offset += Int64(bytes.count)
            }
            while true {
                if let total, chunked == nil, offset >= total { break }
                var maximum = pacer.pieceSize(default: reader.capacity)
                if let total, chunked == nil { maximum = Int(min(Int64(maximum), total - offset)) }
                let received = try TransferError.catching { () throws(HTTPError) in try reader.receive(maximum: maximum) }
                guard let piece = received else {
                    // A close ends the body only when nothing declared its length.
                    guard total == nil, chunked == nil else {
                        throw TransferError(.transport, .connectionLost,
                                            "the connection closed after \(offset) of \(total.map(String.init) ?? "?") bytes")
                    }
                    break
                }
                try pacer.wait(for: piece.count)
                if var decoder = chunked {
                    try decoder.decode(piece, emit: write)
                    chunked = decoder
                    if decoder.isComplete { break }
                } else {
                    try write(piece)
                }

                let now = MonotonicClock.now()
                try speed.check(bytes: offset, now: now, paced: pacer.pacedNanoseconds)
                if offset - checkpoint.length >= request.checkpointBytes || now - checkpoint.time >= checkpointNanoseconds {
                    if leftHoles { try part.spanHoles(upTo: offset) }
                    if syncer == nil { syncer = CheckpointSyncer(part: part, validator: validator, events: events) }
                    try syncer?.checkpoint(length: offset, then: request.bodyObserver?.checkpoint(at: offset))
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
            part.releaseReservation()
            if case .localFile = error.kind { throw error }
            // Without the hole spanned, no checkpoint: the file's shorter length is then what the
            // next attempt finds, and an observer that cannot continue from there starts over.
            let spanned = !leftHoles || (try? part.spanHoles(upTo: offset)) != nil
            if spanned, (try? part.sync()) != nil, offset != checkpoint.length {
                request.bodyObserver?.checkpoint(at: offset)?()
                events(.checkpoint(length: offset, validator: validator))
            }
            throw error
        }

        return ReceivedBody(syncer: syncer, leftHoles: leftHoles)
    }

    /// Makes a whole body durable as its download asks, and checks its length: the checkpoints
    /// still syncing, the observer's state at the end, and the file itself.
    /// - Parameter offset: The body's end, as ``receiveBody(reader:head:part:offset:total:validator:url:)`` left it.
    func finishBody(
        _ body: ReceivedBody, part: PartFile, offset: Int64, total: Int64?, validator: ResumeValidator?, url: URL
    ) throws(TransferError) -> TransferResult {
        try body.syncer?.finish()
        if body.leftHoles { try part.spanHoles(upTo: offset) }
        // The observer's state at the end: a pack archive unpacks from it after a restart.
        request.bodyObserver?.checkpoint(at: offset)?()
        // Unsynced, the end is no checkpoint: after a power cut the download resumes from the last one.
        if request.syncsFinishedFile {
            if let group = request.syncGroup {
                // Written out while others finish; then one commit of the journal serves them all.
                WriteBack.start(part.descriptor)
                group.join()
            }
            try part.sync()
            events(.checkpoint(length: offset, validator: validator))
        }
        events(.progress(totalWritten: offset, expectedLength: total))
        try checkLength(offset)
        return TransferResult(length: offset, validator: validator, finalURL: url)
    }
}

/// A body whose every byte is written, and what its end still has to make durable.
struct ReceivedBody {
    /// The periodic checkpoints' syncer, when one started; some may still be syncing.
    let syncer: CheckpointSyncer?
    /// Whether an observer stored bytes itself, leaving holes the staging file must span.
    let leftHoles: Bool
}
