/*
Abstract:
The ends of transfers (and of their bodies) their threads reported, waiting for the queue to record them together.
*/

import Synchronization

/// How one transfer ended, as its thread reports it.
struct TransferEnd: Sendable {
    let id: Int64
    /// The control the transfer ran under: an end reported for a transfer the queue has since
    /// replaced (a cancel, a promotion that restarted it) is told apart by it.
    let control: TransferControl
    let result: Result<TransferResult, TransferError>
    /// Why the transfer started over from zero on its way, if it did.
    let restartedBecause: String?
}

/// What a transfer's thread reports to the queue: the end of its body, then its own end.
enum TransferReport: Sendable {
    /// Every byte arrived; the transfer only makes them durable now, and may give up its slot.
    case bodyEnded(id: Int64, control: TransferControl)
    case ended(TransferEnd)

    /// The download the report is about.
    var id: Int64 {
        switch self {
        case let .bodyEnded(id, _): id
        case let .ended(end): end.id
        }
    }
}

/// The reports of transfers waiting for the queue.
///
/// Small files end by the hundred a second, many at once. A job on the queue for each end
/// recorded each one in a commit of its own; one job takes every end reported while it waited,
/// and records the finished files in one commit (``DownloadQueue/recordTransferEnds()``).
///
/// The invariant: while an end waits here, a job that will take it is on its way. The end that
/// finds the list empty starts that job; the job takes the whole list, so an end added after it
/// finds the list empty again and starts the next one.
final class TransferEnds: Sendable {
    private let waiting = Mutex<[TransferReport]>([])

    /// Adds a report; a body's end goes through the same job as the transfers' ends, one job for both.
    /// - Returns: Whether it found the list empty: then no job is on its way, and the caller starts one.
    func add(_ report: TransferReport) -> Bool {
        waiting.withLock { reports in
            reports.append(report)
            return reports.count == 1
        }
    }

    /// How many reports wait, for tests.
    var count: Int { waiting.withLock { $0.count } }

    /// How many transfers' own ends wait (not their bodies'), for tests.
    var endCount: Int {
        waiting.withLock { reports in
            reports.count { if case .ended = $0 { true } else { false } }
        }
    }

    /// Takes every report waiting, oldest first: a transfer's body's end before its own end.
    func takeAll() -> [TransferReport] {
        waiting.withLock { ends in
            defer { ends.removeAll() }
            return ends
        }
    }
}
