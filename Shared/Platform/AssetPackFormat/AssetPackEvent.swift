/*
Abstract:
What happens to an app's asset pack, in the order it happens: the system reports these to every watcher.
*/

import BackgroundAssetsIPC

/// One step of an asset pack's life on a device, as the system reports it to the app and its
/// extension. The framework turns these into `AssetPackManager.DownloadStatusUpdate` values.
public enum AssetPackEvent: Sendable, Equatable {
    /// The pack's download began, or resumed after a pause.
    case began(packID: String, version: Int)
    /// The pack's download paused (the network went away, or the transfer waits its turn).
    case paused(packID: String, version: Int)
    /// The pack's download progressed.
    case downloading(packID: String, version: Int, completedBytes: Int64, totalBytes: Int64)
    /// The pack was downloaded, verified and unpacked: it is available on the device.
    case finished(packID: String, version: Int)
    /// The pack's download, verification or unpacking failed; nothing of it was installed.
    case failed(packID: String, version: Int, failure: WireFailure)
    /// The pack was removed from the device.
    case removed(packID: String)

    /// The pack the event is about.
    public var packID: String {
        switch self {
        case let .began(packID, _), let .paused(packID, _), let .downloading(packID, _, _, _),
             let .finished(packID, _), let .failed(packID, _, _), let .removed(packID):
            packID
        }
    }

    /// Whether this event ends a download: finished or failed.
    public var endsDownload: Bool {
        switch self {
        case .finished, .failed: true
        default: false
        }
    }
}

extension AssetPackEvent {
    /// The event as the service sends it.
    public var wireEvent: AssetPackStatusEvent {
        switch self {
        case let .began(packID, version): AssetPackStatusEvent(kind: .began, packID: packID, version: version)
        case let .paused(packID, version): AssetPackStatusEvent(kind: .paused, packID: packID, version: version)
        case let .downloading(packID, version, completed, total):
            AssetPackStatusEvent(kind: .downloading, packID: packID, version: version, completedBytes: completed, totalBytes: total)
        case let .finished(packID, version): AssetPackStatusEvent(kind: .finished, packID: packID, version: version)
        case let .failed(packID, version, failure):
            AssetPackStatusEvent(kind: .failed, packID: packID, version: version, failure: failure)
        case let .removed(packID): AssetPackStatusEvent(kind: .removed, packID: packID, version: nil)
        }
    }

    /// The event a service sent, or `nil` when it lacks what its kind needs (a version, totals, a
    /// failure) or names a pack no pack could be called.
    public init?(wireEvent event: AssetPackStatusEvent) {
        guard AssetPackIdentifier.problem(with: event.packID) == nil else { return nil }
        if event.kind == .removed {
            self = .removed(packID: event.packID)
            return
        }
        guard let version = event.version, version >= 0 else { return nil }
        switch event.kind {
        case .began: self = .began(packID: event.packID, version: version)
        case .paused: self = .paused(packID: event.packID, version: version)
        case .downloading:
            guard let completed = event.completedBytes, let total = event.totalBytes else { return nil }
            self = .downloading(packID: event.packID, version: version, completedBytes: completed, totalBytes: total)
        case .finished: self = .finished(packID: event.packID, version: version)
        case .failed:
            guard let failure = event.failure else { return nil }
            self = .failed(packID: event.packID, version: version, failure: failure)
        case .removed: return nil
        }
    }
}
