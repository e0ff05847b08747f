/*
Abstract:
A pack version on its way to the device: the manifest entry that verifies its archive, and its row in the queue.
*/

import AssetPackFormat
import Foundation

/// One pack version the system is downloading for an app, as the asset-pack store keeps it.
///
/// The queue keeps the archive's bytes across restarts; this keeps what the queue cannot: the
/// manifest entry the archive must match (identifier, version, SHA-256, policy), so a service that
/// restarts mid-download still verifies and installs what its queue finishes.
struct PendingAssetPackDownload: Sendable, Equatable {
    /// The app the pack is for.
    var app: String
    /// The version being downloaded, as the manifest listed it.
    var entry: AssetPackDownloadManifest.Entry
    /// The archive's absolute URL.
    var archiveURL: URL
    /// Whether it belongs to an install's essential phase.
    var isEssential: Bool
    /// The queue row fetching the archive, once it is queued.
    var rowID: Int64?
    /// Whether it started before the extension's `shouldDownload(_:)` answer and still awaits it:
    /// a service that restarts before the answer withdraws it, since no answer will come.
    var awaitsAnswer = false

    /// The record's key.
    var key: InstalledAssetPack.Key { InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id) }
}
