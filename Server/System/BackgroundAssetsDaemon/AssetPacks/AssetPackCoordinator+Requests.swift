/*
Abstract:
What the app's asset-pack manager asks for: a pack version, its removal, an update check, the packs downloading.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// Downloads and installs a pack version the app asks for, or joins its download under way.
    /// - Parameters:
    ///   - app: The app.
    ///   - packID: The pack.
    ///   - version: The version the app's manifest listed.
    ///   - deviceNow: The device's time, recorded as the pack's last use.
    /// - Returns: What became of the request, or why it was refused.
    nonisolated(nonsending) func request(_ app: InstalledApp, packID: String, version: Int, deviceNow: Date) async
        -> Result<AssetPackRequestOutcome, WireFailure>
    {
        know(app)
        let id = app.bundleIdentifier
        let entry: AssetPackDownloadManifest.Entry
        let archiveURL: URL
        switch await self.entry(of: app, packID: packID, version: version) {
        case let .success(found): (entry, archiveURL) = found
        case let .failure(failure): return .failure(failure)
        }
        let key = InstalledAssetPack.Key(bundleIdentifier: id, packID: packID)
        if installed[key] != nil {
            installed[key]?.lastUsed = deviceNow
            try? await existingStore?.markUsed(app: id, packID: packID, at: deviceNow)
        }
        let installedVersion = host.layout(forAppGroup: app.bundle.appGroup)?.installedVersion(of: packID)
        let (outcome, actions) = state.request(app: id, entry: entry, archiveURL: archiveURL, installedVersion: installedVersion)
        // Someone waits for it: it downloads in the foreground, as a download the app starts does.
        inForeground.insert(key)
        defer { inForeground.remove(key) }
        await perform(actions)
        return .success(outcome)
    }

    /// Removes a pack from the device, cancelling its download if one runs.
    /// - Returns: Whether the pack was on the device or on its way.
    nonisolated(nonsending) func remove(_ app: InstalledApp, packID: String) async -> Bool {
        know(app)
        let id = app.bundleIdentifier
        let isInstalled = host.layout(forAppGroup: app.bundle.appGroup)?.installedVersion(of: packID) != nil
        guard isInstalled || state.activities(of: id)[packID] != nil else { return false }
        await perform(state.remove(app: id, packID: packID))
        return true
    }

    /// Fetches the latest manifest, schedules newer versions of the installed packs and removes the
    /// packs the manifest no longer lists: `checkForUpdates()`, and the periodic check of a managed app.
    /// - Returns: The packs being updated and those removed, or why the manifest could not be used.
    nonisolated(nonsending) func checkForUpdates(_ app: InstalledApp) async -> Result<AssetPackChanges, WireFailure> {
        switch await fetchManifest(of: app) {
        case let .failure(failure): return .failure(failure)
        case let .success((manifest, url, _)): return .success(await update(app, to: manifest, at: url))
        }
    }

    /// Schedules the updates and removals a manifest calls for.
    nonisolated(nonsending) func update(_ app: InstalledApp, to manifest: AssetPackDownloadManifest, at url: URL) async -> AssetPackChanges {
        know(app)
        let installedVersions = host.installedVersions(appGroup: app.bundle.appGroup)
        let plan = AssetPackPolicy.plan(for: .updateCheck, manifest: manifest, installed: installedVersions)
        await perform(state.schedule(plan, app: app.bundleIdentifier) { $0.archiveURL(relativeTo: url) })
        return AssetPackChanges(updating: plan.background.map(\.id), removed: plan.removals)
    }

    /// The app's packs whose download is under way, but those the extension has yet to accept.
    func downloading(_ app: String) -> [String] {
        state.activities(of: app).filter { !$0.value.awaitsAnswer }.keys.sorted()
    }

    /// Removes packs as storage pressure would: on-demand packs first, then prefetch packs, least
    /// recently used first, never an essential pack.
    /// - Parameters:
    ///   - app: The only app whose packs may go, or `nil` for every app's.
    ///   - bytes: The bytes to free; `nil` removes every pack storage pressure may remove.
    /// - Returns: The packs removed, in order.
    nonisolated(nonsending) func purge(app: String?, bytes: Int64?) async -> [InstalledAssetPack] {
        let candidates = installed.values.filter { app == nil || $0.bundleIdentifier == app }
        let chosen = bytes.map { AssetPackPolicy.packsToFree($0, installed: Array(candidates)) }
            ?? AssetPackPolicy.removalOrder(Array(candidates))
        for pack in chosen {
            trace.append(.init(from: "tool", to: "backgroundassetsd", event: "assetPackEvicted", app: pack.bundleIdentifier,
                               download: pack.packID, detail: "storage pressure, \(pack.sizeOnDisk) bytes"))
            await perform(state.remove(app: pack.bundleIdentifier, packID: pack.packID))
        }
        return chosen
    }

    /// The app's packs, installed or on their way, for `status`; `nil` when it has none.
    func statuses(of app: String) -> [AssetPackStatus]? {
        let downloads = state.activities(of: app)
        var packs = Set(downloads.keys)
        for key in installed.keys where key.bundleIdentifier == app { packs.insert(key.packID) }
        guard !packs.isEmpty else { return nil }
        return packs.sorted().map { packID in
            let record = installed[InstalledAssetPack.Key(bundleIdentifier: app, packID: packID)]
            let activity = downloads[packID]
            var status = AssetPackStatus(
                packID: packID, installedVersion: record?.version, downloadingVersion: activity?.entry.version,
                downloadPolicy: (activity?.entry.downloadPolicy ?? record?.downloadPolicy ?? .onDemand).summary,
                state: "installed", sizeOnDisk: record?.sizeOnDisk)
            switch activity?.phase {
            case nil: break
            case .queued?: status.state = record == nil ? "queued" : "update queued"
            case let .downloading(completed, total)?:
                status.state = record == nil ? "downloading" : "updating"
                (status.completedBytes, status.totalBytes) = (completed, total)
            case .installing?: status.state = "installing"
            }
            return status
        }
    }
}
