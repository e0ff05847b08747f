/*
Abstract:
Decides which of a transfer's progress reports the trace keeps: enough to draw bytes over time, few enough to read.
*/

import Foundation

/// Thins each download's progress reports to the samples the trace records as `downloadProgress`.
///
/// A transfer reports progress for every read, hundreds of times a second. The trace keeps one
/// report in four per second at most, and of those only one that moved the download by a
/// hundredth of its size, or that comes five seconds after the last sample: about a hundred
/// samples per download, plus one per five seconds of a slow one.
struct ProgressTraceSampler: Sendable {
    /// The least time between two samples of one download.
    static let minimumInterval: TimeInterval = 0.25
    /// The time after which a sample is kept whatever the bytes.
    static let maximumInterval: TimeInterval = 5
    /// The part of the file a sample must add, within the two intervals.
    static let minimumStep = 0.01

    private struct Last: Sendable {
        var time: Date
        var written: Int64
    }

    private var last: [Int64: Last] = [:]
    /// The bytes of each download's latest report, kept or not, for the entry that ends its run.
    private var reported: [Int64: Int64] = [:]

    /// Whether a progress report becomes a trace sample; a report that does is remembered.
    /// - Parameters:
    ///   - rowID: The download's queue row.
    ///   - written: The bytes of the file written so far.
    ///   - expected: The file's size, or a value of 0 or less when unknown.
    ///   - now: When the report arrived.
    /// - Returns: Whether to record it.
    mutating func keeps(rowID: Int64, written: Int64, expected: Int64, at now: Date) -> Bool {
        reported[rowID] = written
        guard let previous = last[rowID] else {
            last[rowID] = Last(time: now, written: written)
            return true
        }
        let elapsed = now.timeIntervalSince(previous.time)
        guard elapsed >= Self.minimumInterval, written != previous.written else { return false }
        let step = expected > 0 ? Double(abs(written - previous.written)) / Double(expected) : 1
        guard step >= Self.minimumStep || elapsed >= Self.maximumInterval else { return false }
        last[rowID] = Last(time: now, written: written)
        return true
    }

    /// The bytes of a download's latest report, or 0 before its first.
    func lastWritten(rowID: Int64) -> Int64 {
        reported[rowID] ?? 0
    }

    /// Forgets a download that stopped transferring; its next run starts with a sample.
    mutating func forget(rowID: Int64) {
        last[rowID] = nil
        reported[rowID] = nil
    }
}
