/*
Abstract:
The things that happen to the sessions while the app runs, as the display reports them.
*/

import SessionKit

/// Something that happened to the manifest or to one session's download.
enum SessionEvent: Sendable {
    /// A manifest was loaded, just downloaded or as saved on the device; `remote` of its sessions
    /// are not on the device.
    case manifestLoaded(version: Int, sessions: Int, remote: Int, isRefreshed: Bool)
    /// The manifest could not be refreshed; the local copy, if any, stays in use.
    case manifestUnavailable(String)
    /// A download was started in the foreground; `promoted` when it was already in flight.
    case downloadStarted(Session.ID, promoted: Bool)
    /// A download began transferring.
    case downloadBegan(Session.ID)
    /// A download paused.
    case downloadPaused(Session.ID)
    /// A download made progress.
    case downloadProgressed(Session.ID, fractionCompleted: Double)
    /// A session's video was verified and moved into place.
    case downloaded(Session.ID)
    /// A session's download failed, or was not started, for the reason given.
    case downloadFailed(Session.ID, reason: String)

    /// Whether the event can leave every session settled: a manifest loaded (or missing), or a
    /// session downloaded or failed. A run waiting for all of them looks after these only, since
    /// the others (a start, a begin, a pause, progress) leave a session in flight.
    var maySettle: Bool {
        switch self {
        case .manifestLoaded, .manifestUnavailable, .downloaded, .downloadFailed: true
        case .downloadStarted, .downloadBegan, .downloadPaused, .downloadProgressed: false
        }
    }

    /// The event as one line of text, for a log of events.
    var line: String {
        switch self {
        case let .manifestLoaded(version, sessions, remote, isRefreshed):
            "\(isRefreshed ? "Refreshed the manifest" : "Loaded the saved manifest"), version \(version): "
                + "\(sessions) sessions, \(remote) not on the device."
        case let .manifestUnavailable(reason):
            "Manifest not refreshed: \(reason)"
        case let .downloadStarted(id, promoted):
            promoted ? "\(id): promoted to the foreground." : "\(id): download started in the foreground."
        case let .downloadBegan(id):
            "\(id): downloading."
        case let .downloadPaused(id):
            "\(id): paused."
        case let .downloadProgressed(id, fraction):
            "\(id): \(Int((fraction * 100).rounded(.down)))%."
        case let .downloaded(id):
            "\(id): downloaded and verified."
        case let .downloadFailed(id, reason):
            "\(id): failed: \(reason)"
        }
    }
}
