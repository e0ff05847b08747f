/*
Abstract:
One download's row of the timeline: its runs with their bytes over time, and what happened to it.
*/

import BackgroundAssetsIPC
import Foundation

/// Everything the trace says about one download of one app, ready to be drawn as a lane.
struct DownloadLane: Sendable, Equatable {
    /// A sample of the bytes on disk.
    struct Sample: Sendable, Equatable {
        var time: Date
        var written: Int64
    }

    /// One stretch of transferring, from `downloadDidBegin` to the pause or end that stopped it.
    struct Run: Sendable, Equatable {
        var start: Date
        var end: Date
        var foreground: Bool
        var essential: Bool
        var samples: [Sample]
        /// Whether the trace ends while it still transfers.
        var isOpen = false
    }

    /// A moment worth a symbol on the lane.
    enum Mark: Sendable, Equatable {
        /// An app or the extension scheduled it, or the app started it in the foreground.
        case queued(foreground: Bool)
        /// The app promoted the download to the foreground.
        case promoted
        /// It stopped transferring to wait for a retry; the reason is the error.
        case retry(String)
        /// It started over from zero (a changed file, or a lost partial file).
        case restarted
        /// The server asked for credentials.
        case challenge
        /// Its file was handed over.
        case finished
        /// It failed; the reason is the error.
        case failed(String)
        /// It was cancelled.
        case cancelled
    }

    /// The app that owns the download.
    let app: String
    /// The download's identifier.
    let download: String
    /// The file's size, once a transfer entry gave it.
    var expected: Int64?
    /// The download's priority, once a transfer entry gave it.
    var priority: Int?
    /// Whether any run was essential.
    var essential = false
    /// When it was first queued within the trace, if the trace says.
    var queuedAt: Date?
    /// Its runs, in order.
    var runs: [Run] = []
    /// Its marks, in order of time.
    var marks: [Marked] = []

    /// A mark at its time.
    struct Marked: Sendable, Equatable {
        var time: Date
        var mark: Mark
    }

    /// How the lane ends.
    enum Outcome: Sendable, Equatable {
        case finished, failed, cancelled, transferring, waiting
    }

    /// What the last ending mark says, or whether it still transfers when the trace ends.
    var outcome: Outcome {
        for marked in marks.reversed() {
            switch marked.mark {
            case .finished: return .finished
            case .failed: return .failed
            case .cancelled: return .cancelled
            case .queued, .promoted: return runs.last?.isOpen == true ? .transferring : .waiting
            case .retry, .restarted, .challenge: continue
            }
        }
        return runs.last?.isOpen == true ? .transferring : .waiting
    }

    /// The first moment the lane has anything to draw.
    var firstTime: Date? {
        [queuedAt, runs.first?.start, marks.first?.time].compactMap { $0 }.min()
    }

    /// The last moment the lane has anything to draw.
    var lastTime: Date? {
        [runs.last?.end, marks.last?.time].compactMap { $0 }.max()
    }

    /// Whether the app promoted it at any time.
    var wasPromoted: Bool {
        marks.contains { if case .promoted = $0.mark { true } else { false } }
    }

    /// The highest byte count any sample reached.
    var bytesReached: Int64 {
        runs.flatMap(\.samples).map(\.written).max() ?? 0
    }
}
