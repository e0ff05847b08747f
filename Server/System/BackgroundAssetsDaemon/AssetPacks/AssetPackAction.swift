/*
Abstract:
What the asset-pack state asks the service to do: download, cancel, install, record, remove, report.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// One thing to do, returned by ``AssetPackState``; the service does them in order.
public enum AssetPackAction: Sendable, Equatable {
    /// Schedule the archive's download in the queue, as `asset-pack.ID.vVERSION`, essential or not.
    case startDownload(app: String, entry: AssetPackDownloadManifest.Entry, archiveURL: URL, isEssential: Bool)
    /// Cancel a download of the queue.
    case cancelDownload(app: String, identifier: AssetPackDownloadIdentifier)
    /// Withdraw a download started ahead of the extension's answer, which did not accept it: cancel
    /// its row and delete what it wrote (the archive that arrived, if one did), reporting nothing.
    case withdrawDownload(app: String, identifier: AssetPackDownloadIdentifier, heldArchive: URL?)
    /// Verify and unpack a downloaded archive (``AssetPackHost/install(archive:entry:appGroup:)``).
    case install(app: String, entry: AssetPackDownloadManifest.Entry, archive: URL)
    /// Record an installed version in the store.
    case record(InstalledAssetPack)
    /// Delete a pack's files (``AssetPackHost/remove(packID:appGroup:)``) and its record.
    case remove(app: String, packID: String)
    /// Report an event to the app's processes and the trace.
    case emit(app: String, event: AssetPackEvent)
}
