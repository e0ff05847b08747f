/*
Abstract:
What the server offers and what the device has: the manifest, the packs, their status, updates and removal.
*/

import AssetPackFormat
import Foundation

extension AssetPackManager {
    /// The manifest of asset packs that are available to download.
    ///
    /// Reading it gets the latest asset-pack information from the server.
    public var manifest: AssetPackManifest {
        get async throws {
            let environment = try environment()
            let latest = try await service.latestManifest()
            let manifest = AssetPackManifest(manifest: latest.manifest, manifestURL: latest.url,
                                             appGroupID: environment.settings.appGroupID ?? "")
            for pack in manifest.orderedPacks where !inFlight.keys.contains(where: { $0.packID == pack.id }) {
                knownPacks[pack.id] = pack
            }
            return manifest
        }
    }

    /// The asset packs that are available to download.
    ///
    /// Accessing this property gets the latest asset-pack information from the server.
    public var allAssetPacks: Set<AssetPack> {
        get async throws { try await manifest.assetPacks }
    }

    /// Returns the asset pack with the given ID.
    /// - Parameter assetPackID: The asset pack's ID.
    /// - Throws: ``ManagedBackgroundAssetsError/assetPackNotFound(withID:)`` when the manifest has no such pack.
    public func assetPack(withID assetPackID: String) async throws -> AssetPack {
        guard let pack = try await manifest.assetPack(withID: assetPackID) else {
            throw ManagedBackgroundAssetsError.assetPackNotFound(withID: assetPackID)
        }
        return pack
    }

    /// Checks an asset pack's status against the latest manifest on the server.
    ///
    /// It doesn't trigger any downloads, updates or removals. Deprecated, as in Apple's framework
    /// since the 26.4 releases: use ``status(relativeTo:)`` or ``localStatus(ofAssetPackWithID:)``.
    /// - Parameter assetPackID: The asset pack's ID.
    /// - Throws: ``ManagedBackgroundAssetsError/assetPackNotFound(withID:)`` when the pack is neither
    ///   in the manifest nor on the device.
    @available(*, deprecated, message: "Use status(relativeTo:) instead.")
    public func status(ofAssetPackWithID assetPackID: String) async throws -> AssetPack.Status {
        let layout = try layout()
        let latest = try await manifest.assetPack(withID: assetPackID)
        let installed = layout.installedVersion(of: assetPackID)
        guard latest != nil || installed != nil else { throw ManagedBackgroundAssetsError.assetPackNotFound(withID: assetPackID) }
        return AssetPack.Status(latestVersion: latest?.version, installedVersion: installed,
                                isDownloading: try await isDownloading(assetPackID))
    }

    /// Checks the current status relative to a particular asset pack.
    ///
    /// `outOfDate` when another version is on the device; `updateAvailable` only when `assetPack`
    /// is still the server's latest version.
    /// - Parameter assetPack: The asset pack.
    public func status(relativeTo assetPack: AssetPack) async throws -> AssetPack.Status {
        let layout = try layout()
        let latest = try await manifest.assetPack(withID: assetPack.id)
        var status = AssetPack.Status(latestVersion: assetPack.version, installedVersion: layout.installedVersion(of: assetPack.id),
                                      isDownloading: try await isDownloading(assetPack.id))
        if latest?.version != assetPack.version { status.remove(.updateAvailable) }
        if latest == nil { status.insert(.obsolete) }
        return status
    }

    /// Checks an asset pack's local status, without asking the server.
    /// - Parameter assetPackID: The asset pack's ID.
    /// - Returns: `downloaded` when a version is on the device, `downloading` when a download is under
    ///   way; empty when neither, or when the app may not use managed packs.
    public func localStatus(ofAssetPackWithID assetPackID: String) async -> AssetPack.Status {
        guard let layout = try? layout() else { return [] }
        var status: AssetPack.Status = layout.installedVersion(of: assetPackID) == nil ? [] : .downloaded
        if (try? await isDownloading(assetPackID)) == true { status.insert(.downloading) }
        return status
    }

    /// Gets the latest asset-pack information from the server, updates outdated asset packs, and
    /// removes obsolete asset packs.
    ///
    /// It waits for the downloads it schedules to be registered, not for them to finish; watch
    /// ``statusUpdates`` for that.
    /// - Returns: The IDs of the packs being updated and of those removed by this check.
    @discardableResult
    public func checkForUpdates() async throws -> (updatingIDs: Set<String>, removedIDs: Set<String>) {
        _ = try environment()
        listener.start()
        return try await service.checkForUpdates()
    }

    /// Removes the specified asset pack from the device.
    /// - Parameter assetPackID: The asset pack's ID.
    /// - Throws: ``ManagedBackgroundAssetsError/assetPackNotFound(withID:)`` when the pack is neither on
    ///   the device nor in the manifest.
    public func remove(assetPackWithID assetPackID: String) async throws {
        _ = try environment()
        if try await service.removePack(withID: assetPackID) { return }
        guard try await manifest.assetPack(withID: assetPackID) != nil else {
            throw ManagedBackgroundAssetsError.assetPackNotFound(withID: assetPackID)
        }
    }

    private func isDownloading(_ assetPackID: String) async throws -> Bool {
        if inFlight.keys.contains(where: { $0.packID == assetPackID }) { return true }
        return try await service.downloadingPackIDs().contains(assetPackID)
    }
}
