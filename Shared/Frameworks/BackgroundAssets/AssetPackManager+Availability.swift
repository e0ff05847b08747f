/*
Abstract:
Making asset packs available: one download shared by every caller, and the events that end it.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import ServiceClient

extension AssetPackManager {
    /// Ensures that an asset pack is available locally, performing a download if necessary.
    ///
    /// If the pack is already on the device this returns at once, without asking the system.
    /// Otherwise the system downloads, verifies and installs it, and this returns when it is
    /// available; callers that ask for a pack while it downloads share that one download. Watch
    /// ``statusUpdates`` or ``statusUpdates(forAssetPackWithID:)`` in a separate task for progress.
    /// - Parameters:
    ///   - assetPack: The asset pack the local availability of which to ensure.
    ///   - shouldUpdate: Whether to require that the latest version be available locally. When
    ///     `true`, the method fetches the manifest and waits for a newer version, if there is one,
    ///     to be downloaded. When `false`, any downloaded version will do.
    /// - Throws: When the system can't ensure the asset pack's local availability: a `BAError`, or
    ///   the error of the failed download.
    public func ensureLocalAvailability(of assetPack: AssetPack, requireLatestVersion shouldUpdate: Bool = false) async throws {
        let layout = try layout()
        let installed = layout.installedVersion(of: assetPack.id)
        if installed != nil, !shouldUpdate { return }
        var wanted = assetPack
        if shouldUpdate {
            let latest = try await manifest.assetPack(withID: assetPack.id) ?? assetPack
            if latest.version == installed { return }
            wanted = latest
        }
        try await download(wanted)
    }

    /// Ensures that the specified asset pack is available locally, performing a download if necessary.
    ///
    /// The same as ``ensureLocalAvailability(of:requireLatestVersion:)`` with `false`. Deprecated,
    /// as in Apple's framework since the 26.4 releases; `ensureLocalAvailability(of: pack)` calls the
    /// newer method, whose second argument defaults to `false`.
    @available(*, deprecated, renamed: "ensureLocalAvailability(of:requireLatestVersion:)")
    @_disfavoredOverload
    public func ensureLocalAvailability(of assetPack: AssetPack) async throws {
        try await ensureLocalAvailability(of: assetPack, requireLatestVersion: false)
    }

    /// Checks whether an asset pack is available locally, without asking the system.
    /// - Parameter assetPackID: The asset pack's ID.
    /// - Returns: Whether a version of the pack is on the device; `false` when the app may not use managed packs.
    public nonisolated func assetPackIsAvailableLocally(withID assetPackID: String) -> Bool {
        ((try? layout())?.installedVersion(of: assetPackID)) != nil
    }

    /// How many callers await a download of the pack in this process.
    func waiterCount(forPackWithID packID: String) -> Int {
        inFlight.filter { $0.key.packID == packID }.reduce(0) { $0 + $1.value.waiterCount }
    }

    /// Downloads a pack version, or joins the download this process already awaits.
    private func download(_ pack: AssetPack) async throws {
        knownPacks[pack.id] = pack
        let key = AssetPackDownloadIdentifier(packID: pack.id, version: pack.version)
        if let current = inFlight[key] { return try await current.wait() }
        let completion = AssetPackDownloadCompletion()
        inFlight[key] = completion
        listener.start()
        do {
            if try await service.requestDownload(of: pack.entry) == .alreadyInstalled {
                finish(pack.id, version: pack.version, with: .success(()))
            }
        } catch {
            finish(pack.id, version: pack.version, with: .failure(error))
        }
        try await completion.wait()
    }

    /// Ends the awaited download of a pack version, for every caller.
    private func finish(_ packID: String, version: Int, with result: Result<Void, any Error>) {
        inFlight.removeValue(forKey: AssetPackDownloadIdentifier(packID: packID, version: version))?.resolve(result)
    }

    /// Turns one system event into a status update for every watcher, and ends a download it finishes.
    func handle(_ event: AssetPackEvent) async {
        guard let pack = await describe(event) else { return }
        let update: DownloadStatusUpdate? = switch event {
        case .began: .began(pack)
        case .paused: .paused(pack)
        case let .downloading(_, _, completed, total):
            .downloading(pack, Self.progress(completed: completed, total: total))
        case .finished: .finished(pack)
        case let .failed(_, _, failure): .failed(pack, failure.makeError())
        case .removed: nil
        }
        if let update { broadcaster.publish(update) }
        switch event {
        case let .finished(packID, version): finish(packID, version: version, with: .success(()))
        case let .failed(packID, version, failure): finish(packID, version: version, with: .failure(failure.makeError()))
        default: break
        }
    }

    /// The pack an event is about, in the version the event names.
    private func describe(_ event: AssetPackEvent) async -> AssetPack? {
        let version: Int
        switch event {
        case let .began(_, v), let .paused(_, v), let .downloading(_, v, _, _), let .finished(_, v), let .failed(_, v, _):
            version = v
        case .removed:
            knownPacks[event.packID] = nil
            return nil
        }
        if let known = knownPacks[event.packID], known.version == version { return known }
        // A download this process did not ask for (the extension's, or the system's own): look it up.
        if let listed = try? await manifest.assetPack(withID: event.packID), listed.version == version {
            knownPacks[listed.id] = listed
            return listed
        }
        return knownPacks[event.packID]
    }

    private static func progress(completed: Int64, total: Int64) -> Progress {
        let progress = Progress(totalUnitCount: max(total, 0))
        progress.completedUnitCount = min(max(completed, 0), max(total, 0))
        return progress
    }
}
