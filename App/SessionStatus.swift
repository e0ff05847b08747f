/*
Abstract:
What the app shows for one session: where its video stands, and how its download is doing.
*/

import SessionKit

/// A snapshot of one session as the app shows it.
struct SessionStatus: Sendable, Identifiable {
    /// Where a session's video stands.
    enum Phase: Sendable, Equatable, CustomStringConvertible {
        /// Not on the device, and no download asked for yet.
        case remote
        /// A download was asked for and waits to start.
        case waiting
        /// The download is transferring.
        case downloading
        /// The download stopped without ending, for example while it moves to the foreground.
        case paused
        /// The video is on the device, verified.
        case downloaded
        /// The download failed, for the reason given; the next launch tries again.
        case failed(String)

        var description: String {
            switch self {
            case .remote: "remote"
            case .waiting: "waiting"
            case .downloading: "downloading"
            case .paused: "paused"
            case .downloaded: "downloaded"
            case .failed: "failed"
            }
        }

        /// Whether the download failed.
        var isFailed: Bool {
            if case .failed = self { true } else { false }
        }

        /// Whether nothing more will happen to the session in this run: it is on disk, or it failed.
        var isSettled: Bool {
            switch self {
            case .downloaded, .failed: true
            case .remote, .waiting, .downloading, .paused: false
            }
        }
    }

    /// The session as the manifest describes it.
    let session: Session
    /// Where its video stands.
    let phase: Phase
    /// The bytes downloaded so far, in the current download.
    let bytesWritten: Int64
    /// The recent download rate, or `nil` when nothing arrived lately.
    let bytesPerSecond: Double?

    var id: Session.ID { session.id }

    /// The fraction of the video on the device, from 0 to 1.
    var fractionCompleted: Double {
        if phase == .downloaded { return 1 }
        guard session.fileSize > 0 else { return 0 }
        return min(1, Double(bytesWritten) / Double(session.fileSize))
    }
}
