/*
Abstract:
What the asset-pack manager asks of the system, as a protocol: the service's client, or an in-memory system in tests.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// The system side of ``AssetPackManager``.
///
/// The manager keeps the rules that are the framework's (checking the app may use managed packs,
/// sharing one download among callers, ordering status updates, resolving files inside installed
/// packs); everything that needs the system (the manifest from the server, downloads, removal)
/// goes through this protocol.
package protocol AssetPackService: Sendable {
    /// What the system knows about the app's managed packs. Synchronous, because the manager's
    /// file accessors are; it reads local files only.
    /// - Throws: An error when the app's Info.plist cannot be read.
    func environment() throws -> ManagedAssetPackEnvironment

    /// The latest download manifest of the app, and the URL it came from.
    func latestManifest() async throws -> (manifest: AssetPackDownloadManifest, url: URL?)

    /// Asks the system to download and install a pack's version; returns once the request is registered.
    func requestDownload(of pack: AssetPackDownloadManifest.Entry) async throws -> AssetPackRequestOutcome

    /// Removes a pack from the device.
    /// - Returns: Whether the pack was on the device (or downloading) and is now gone.
    func removePack(withID packID: String) async throws -> Bool

    /// Fetches the latest manifest, schedules updates of outdated packs and removes obsolete ones.
    func checkForUpdates() async throws -> (updatingIDs: Set<String>, removedIDs: Set<String>)

    /// The packs whose download is under way, whoever asked for it.
    func downloadingPackIDs() async throws -> Set<String>

    /// The app's pack events from now on, in the order the system reports them.
    ///
    /// Called synchronously before a download is requested, so no event of that download can be missed.
    func events() -> AsyncStream<AssetPackEvent>
}
