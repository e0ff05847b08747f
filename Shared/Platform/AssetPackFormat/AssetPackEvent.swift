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

/// What became of an app's request to download a pack version.
public enum AssetPackRequestOutcome: String, Sendable, Equatable, Codable {
    /// The system scheduled the download.
    case scheduled
    /// A download of that version was already under way; the request joined it.
    case joined
    /// That version is already installed.
    case alreadyInstalled
}
