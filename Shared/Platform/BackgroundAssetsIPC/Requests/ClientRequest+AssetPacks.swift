/*
Abstract:
The requests of the asset-pack manager: the manifest, packs requested, removed and updated, their status events.
*/

extension ClientRequest {
    /// The requests `AssetPackManager` makes for an installed app or its extension.
    public enum AssetPacks: Codable, Sendable, Equatable {
        /// Asks for the app's latest asset-pack download manifest, fetched now from its `BAManifestURL`.
        case fetchAssetPackManifest
        /// Asks the system to download and install a version of one of the app's asset packs.
        case requestAssetPack(packID: String, version: Int)
        /// Removes one of the app's asset packs from the device, cancelling its download if one runs.
        case removeAssetPack(packID: String)
        /// Fetches the manifest, schedules updates of the app's outdated packs and removes obsolete ones.
        case checkAssetPackUpdates
        /// Asks which of the app's asset packs are downloading.
        case fetchDownloadingAssetPacks
        /// Says this connection wants the app's `assetPackStatus` events.
        case watchAssetPacks
    }
}
