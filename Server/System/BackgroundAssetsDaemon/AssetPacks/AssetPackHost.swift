/*
Abstract:
The file work of asset packs: verifying and unpacking archives into app group containers, removing packs, measuring space.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// Does the I/O the asset-pack state asks for, in the app group containers of one device root.
///
/// Every method blocks while it reads and writes, so the service calls them off its actor.
public struct AssetPackHost: Sendable {
    /// The device root whose containers hold the packs.
    public let paths: DevicePaths

    /// Creates a host for a device root.
    public init(paths: DevicePaths) {
        self.paths = paths
    }

    /// The packs folder of an app group, or `nil` when the group is not a valid identifier.
    public func layout(forAppGroup group: String) -> AssetPackContainerLayout? {
        paths.container(forAppGroup: group).map(AssetPackContainerLayout.init(appGroupContainer:))
    }

    /// Verifies a downloaded archive against its manifest entry and makes it the pack's current version.
    /// - Parameters:
    ///   - archive: The downloaded archive (in staging).
    ///   - entry: The manifest entry it was downloaded for: identifier, version and SHA-256 must match.
    ///   - appGroup: The app group to install into.
    ///   - digests: The archive's digests, computed as it arrived (``ArchiveArrivals``), if they were;
    ///     without them the archive is read once more to digest it.
    /// - Returns: What was installed and the bytes the pack occupies on disk.
    /// - Throws: ``AssetPackArchiveError`` naming what did not match; nothing is visible then.
    public func install(archive: URL, entry: AssetPackDownloadManifest.Entry, appGroup: String,
                        digests: AssetPackArchiveDigests? = nil) throws(AssetPackArchiveError) -> (AssetPackUnpacker.Installation, sizeOnDisk: Int64) {
        let unpacker = try unpacker(appGroup)
        let installation = try unpacker.install(
            archive: archive, expecting: .init(packID: entry.id, version: entry.version, sha256: entry.sha256), digests: digests)
        return (installation, unpacker.diskUsage(of: entry.id))
    }

    /// Removes a pack from an app group.
    /// - Returns: Whether it was there.
    public func remove(packID: String, appGroup: String) throws(AssetPackArchiveError) -> Bool {
        try unpacker(appGroup).remove(packID: packID)
    }

    /// The installed version of each pack of an app group, as readers see them.
    public func installedVersions(appGroup: String) -> [String: Int] {
        layout(forAppGroup: appGroup)?.installedPacks() ?? [:]
    }

    /// Deletes what interrupted installs left in each app group's packs folder; the service calls
    /// it when it starts, before any install runs.
    /// - Parameters:
    ///   - appGroups: The app groups whose packs folders to tidy.
    ///   - kept: By app group, the staging folders of pack downloads that go on after the restart.
    /// - Returns: The paths removed, prefixed with their app group.
    @discardableResult
    public func removeLeftovers(appGroups: [String], keeping kept: [String: Set<String>] = [:]) -> [String] {
        appGroups.sorted().flatMap { group in
            layout(forAppGroup: group).map {
                AssetPackUnpacker(layout: $0).removeLeftovers(keeping: kept[group] ?? []).map { "\(group)/\($0)" }
            } ?? []
        }
    }

    /// The bytes free for unprivileged use on the device root's file system.
    public func freeBytes() -> Int64? {
        var status = statvfs()
        guard statvfs(paths.root.path, &status) == 0 else { return nil }
        return Int64(status.f_bavail) * Int64(status.f_frsize)
    }

    private func unpacker(_ appGroup: String) throws(AssetPackArchiveError) -> AssetPackUnpacker {
        guard let layout = layout(forAppGroup: appGroup) else {
            throw AssetPackArchiveError(.io, path: appGroup, problem: "is not a valid app group identifier; check BAAppGroupID.")
        }
        // The packs' folder is inside a container its apps can change: made, or found, one folder at
        // a time from the device root without following a link, so a planted link is refused by name.
        do {
            close(try LinkRefusingFolder.open(layout.root, under: paths.root, creating: true))
        } catch {
            throw AssetPackArchiveError(.io, path: error.path, problem: "cannot be used: \(error.reason).")
        }
        return AssetPackUnpacker(layout: layout)
    }
}
