/*
Abstract:
Reads the trace's entries about downloads into one lane per download: runs, bytes over time, and marks.
*/

import BackgroundAssetsIPC
import Foundation

/// Folds trace entries, in order, into ``DownloadLane``s.
struct DownloadLaneBuilder {
    /// The events that make a download a lane of its own: the ones about its transfer. An extension
    /// entry point about a download (`backgroundDownload(_:finishedWithFileURL:)`) is drawn on the
    /// extension's row instead.
    static let transferEvents: Set<String> = [
        "scheduleDownload", "startForegroundDownload", "cancel", "downloadDidBegin", "downloadDidPause",
        TraceEntry.progressEvent, "finishedWithFileURL", "failedWithError", "didReceiveChallenge",
    ]

    private struct Key: Hashable {
        let app: String
        let download: String
    }

    private var lanes: [Key: DownloadLane] = [:]
    private var order: [Key] = []
    /// When each app's extension last had its downloads scheduled, for the lanes it queued.
    private var lastReturnedSchedule: [String: Date] = [:]

    /// Takes one entry into account.
    mutating func add(_ entry: TraceEntry) {
        if entry.event == "scheduleReturnedDownloads", let app = entry.app {
            lastReturnedSchedule[app] = entry.time
            return
        }
        guard Self.transferEvents.contains(entry.event), let app = entry.app, let download = entry.download else { return }
        let key = Key(app: app, download: download)
        if lanes[key] == nil {
            order.append(key)
            var lane = DownloadLane(app: app, download: download)
            // Downloads the extension returned carry no schedule entry of their own: the batch's is theirs.
            let schedulesItself = entry.event == "scheduleDownload"
                || (entry.event == "startForegroundDownload" && entry.detail != "promoted")
            if !schedulesItself { lane.queuedAt = lastReturnedSchedule[app] }
            lanes[key] = lane
        }
        lanes[key]?.take(entry)
    }

    /// The lanes, in the order their downloads first appeared, with runs still open at `end` closed there.
    func lanes(endingAt end: Date) -> [DownloadLane] {
        order.compactMap { key in
            guard var lane = lanes[key] else { return nil }
            if var run = lane.runs.last, run.isOpen {
                run.end = max(run.start, end)
                lane.runs[lane.runs.count - 1] = run
            }
            return lane
        }
    }
}

extension DownloadLane {
    /// Applies one transfer entry of this lane's download.
    fileprivate mutating func take(_ entry: TraceEntry) {
        let time = entry.time
        if let transfer = entry.transfer {
            expected = transfer.expected ?? expected
            priority = transfer.priority
            essential = essential || transfer.essential
        }
        switch entry.event {
        case "scheduleDownload":
            queuedAt = queuedAt ?? time
            marks.append(Marked(time: time, mark: .queued(foreground: false)))
        case "startForegroundDownload":
            if entry.detail == "promoted" {
                marks.append(Marked(time: time, mark: .promoted))
            } else {
                queuedAt = queuedAt ?? time
                marks.append(Marked(time: time, mark: .queued(foreground: true)))
            }
        case "cancel":
            closeRun(at: time, written: nil)
            marks.append(Marked(time: time, mark: .cancelled))
        case "downloadDidBegin":
            closeRun(at: time, written: nil)
            openRun(at: time, transfer: entry.transfer)
        case TraceEntry.progressEvent:
            if runs.last?.isOpen != true { openRun(at: time, transfer: entry.transfer) }
            if let written = entry.transfer?.written { sample(written, at: time) }
        case "downloadDidPause":
            closeRun(at: time, written: entry.transfer?.written)
            // A pause with a reason waits for a retry; one without was the app's promotion.
            if let reason = entry.detail { marks.append(Marked(time: time, mark: .retry(reason))) }
        case "finishedWithFileURL":
            // A file handed over again (to the extension, after a delegate went away) is the same finish.
            guard runs.last?.isOpen == true || marks.last?.mark != .finished else { return }
            closeRun(at: time, written: entry.transfer?.written ?? expected)
            marks.append(Marked(time: time, mark: .finished))
        case "failedWithError":
            closeRun(at: time, written: entry.transfer?.written)
            let held = "essential; held for the extension: "
            let reason = entry.detail.map { $0.hasPrefix(held) ? String($0.dropFirst(held.count)) : $0 } ?? "failed"
            marks.append(Marked(time: time, mark: .failed(reason)))
        case "didReceiveChallenge":
            marks.append(Marked(time: time, mark: .challenge))
        default:
            break
        }
    }

    private mutating func openRun(at time: Date, transfer: TraceTransfer?) {
        let previous = runs.last
        let written = transfer?.written ?? previous?.samples.last?.written ?? 0
        runs.append(Run(
            start: time, end: time, foreground: transfer?.foreground ?? previous?.foreground ?? false,
            essential: transfer?.essential ?? previous?.essential ?? false,
            samples: [Sample(time: time, written: written)], isOpen: true))
    }

    private mutating func sample(_ written: Int64, at time: Date) {
        guard var run = runs.last, run.isOpen else { return }
        if let last = run.samples.last?.written, written < last {
            marks.append(Marked(time: time, mark: .restarted))
        }
        run.samples.append(Sample(time: time, written: written))
        run.end = time
        runs[runs.count - 1] = run
    }

    private mutating func closeRun(at time: Date, written: Int64?) {
        guard var run = runs.last, run.isOpen else { return }
        if let written { run.samples.append(Sample(time: time, written: written)) }
        run.end = time
        run.isOpen = false
        runs[runs.count - 1] = run
    }
}
