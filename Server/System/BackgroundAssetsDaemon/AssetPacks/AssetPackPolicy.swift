/*
Abstract:
What to download, when, and what to remove: pure decisions from the manifest, the installed packs and the free space.
*/

import AssetPackFormat
import Foundation

/// The system's decisions about an app's asset packs, as values: no I/O, no clock.
public enum AssetPackPolicy {
    /// Why the system looks at an app's packs.
    public enum Occasion: Sendable, Equatable {
        /// The app was installed or updated: the install's essential phase, then prefetch packs.
        case installation(AssetPackDownloadPolicy.InstallationEventType)
        /// A periodic check, or the app's `checkForUpdates()`: update what is installed, remove what is obsolete.
        case updateCheck
    }

    /// What to do for an occasion.
    public struct Plan: Sendable, Equatable {
        /// Downloads the app cannot launch without: the install's essential phase.
        public var essential: [AssetPackDownloadManifest.Entry] = []
        /// Downloads that run in the background: prefetch packs after an install, and updates.
        public var background: [AssetPackDownloadManifest.Entry] = []
        /// Installed packs the manifest no longer lists.
        public var removals: [String] = []

        /// Creates an empty plan.
        public init() {}

        /// The packs whose installed version the plan replaces.
        public func updates(installed: [String: Int]) -> Set<String> {
            Set((essential + background).map(\.id).filter { installed[$0] != nil })
        }
    }

    /// Decides what an occasion downloads and removes.
    ///
    /// An installation downloads the essential packs whose policy names its event as essential
    /// downloads, the prefetch packs likewise in the background, and updates every installed pack
    /// the manifest lists in a newer version (an essential one as essential, when its policy names
    /// the event). An update check downloads only newer versions of installed packs. Both remove
    /// installed packs the manifest no longer lists. On-demand packs are never downloaded here.
    /// - Parameters:
    ///   - occasion: Why the system looks.
    ///   - manifest: The app's download manifest, just fetched.
    ///   - installed: The installed version of each pack.
    ///   - accepts: The extension's `shouldDownload(_:)` answer for a pack it would download.
    /// - Returns: The plan.
    public static func plan(for occasion: Occasion, manifest: AssetPackDownloadManifest, installed: [String: Int],
                            accepts: (AssetPackDownloadManifest.Entry) -> Bool = { _ in true }) -> Plan {
        var plan = Plan()
        for entry in manifest.assetPacks {
            if let version = installed[entry.id], version >= entry.version { continue }
            let isUpdate = installed[entry.id] != nil
            switch occasion {
            case let .installation(event):
                guard entry.downloadPolicy.applies(to: event) || isUpdate, accepts(entry) else { continue }
                if entry.downloadPolicy.isEssential, entry.downloadPolicy.applies(to: event) {
                    plan.essential.append(entry)
                } else {
                    plan.background.append(entry)
                }
            case .updateCheck:
                if isUpdate { plan.background.append(entry) }
            }
        }
        let listed = Set(manifest.assetPacks.map(\.id))
        plan.removals = installed.keys.filter { !listed.contains($0) }.sorted()
        return plan
    }

    /// Whether a pack version fits, and what storage pressure must remove first if it does not.
    public enum Admission: Sendable, Equatable {
        /// It fits in the free space.
        case fits
        /// It fits once these packs are removed.
        case fitsAfterRemoving([InstalledAssetPack])
        /// It does not fit even then; this many bytes are missing.
        case doesNotFit(shortfall: Int64)
    }

    /// Decides whether a pack can be downloaded and unpacked in the free space.
    ///
    /// The archive and its unpacked files are on the disk together until the install ends, so both
    /// count, and `reserve` bytes are always left free for the rest of the device. When space is
    /// short, installed packs are removed in the order ``removalOrder(_:protecting:)`` gives.
    /// - Parameters:
    ///   - entry: The pack version to install.
    ///   - app: The app the pack is for.
    ///   - freeBytes: The free space of the device root's file system.
    ///   - reserve: The space always left free.
    ///   - installed: The packs installed on the device, of every app.
    ///   - protecting: Packs that must not be removed (packs in use); the app's older version of
    ///     the same pack is never removed to make room for its update.
    public static func admission(for entry: AssetPackDownloadManifest.Entry, app: String, freeBytes: Int64, reserve: Int64,
                                 installed: [InstalledAssetPack],
                                 protecting: Set<InstalledAssetPack.Key> = []) -> Admission {
        // The sizes come from a server's manifest: a hostile one may declare `Int64.max`.
        let needed = [entry.downloadSize, entry.installSize ?? entry.downloadSize, reserve].saturatedSum()
        guard needed > freeBytes else { return .fits }
        var shortfall = needed.addingSaturated(-max(freeBytes, 0))
        var removals: [InstalledAssetPack] = []
        let replaced = InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)
        for pack in removalOrder(installed, protecting: protecting.union([replaced])) where shortfall > 0 {
            removals.append(pack)
            shortfall -= pack.sizeOnDisk
        }
        return shortfall > 0 ? .doesNotFit(shortfall: shortfall) : .fitsAfterRemoving(removals)
    }

    /// The packs storage pressure may remove, in the order it removes them: on-demand packs first,
    /// then prefetch packs, each least recently used first; never an essential pack.
    public static func removalOrder(_ installed: [InstalledAssetPack],
                                    protecting: Set<InstalledAssetPack.Key> = []) -> [InstalledAssetPack] {
        func rank(_ pack: InstalledAssetPack) -> Int? {
            switch pack.downloadPolicy {
            case .onDemand: 0
            case .prefetch: 1
            case .essential: nil
            }
        }
        return installed.filter { rank($0) != nil && !protecting.contains($0.key) }.sorted { lhs, rhs in
            (rank(lhs) ?? 0, lhs.lastUsed, lhs.bundleIdentifier, lhs.packID)
                < (rank(rhs) ?? 0, rhs.lastUsed, rhs.bundleIdentifier, rhs.packID)
        }
    }

    /// The packs to remove to free `bytes` under storage pressure, in ``removalOrder(_:protecting:)``.
    public static func packsToFree(_ bytes: Int64, installed: [InstalledAssetPack]) -> [InstalledAssetPack] {
        var remaining = bytes
        var chosen: [InstalledAssetPack] = []
        for pack in removalOrder(installed) where remaining > 0 {
            chosen.append(pack)
            remaining -= pack.sizeOnDisk
        }
        return chosen
    }
}
