/*
Abstract:
Carrying out what the asset-pack state asks: queue and cancel archives, unpack them, record, remove and report.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// What carrying out a list of actions started and ended, for the service's install phases.
    struct Performed: Sendable, Equatable {
        /// Archives queued: their row, their size, and whether they are essential.
        var started: [Started] = []
        /// Pack downloads that ended.
        var ended: [PackEnd] = []

        struct Started: Sendable, Equatable {
            var rowID: Int64
            var size: Int64
            var isEssential: Bool
        }

        mutating func append(_ other: Performed) {
            started += other.started
            ended += other.ended
        }
    }

    /// Does what the state asked, in order.
    @discardableResult
    nonisolated(nonsending) func perform(_ actions: [AssetPackAction]) async -> Performed {
        var performed = Performed()
        var remaining = actions[...]
        while let action = remaining.popFirst() {
            switch action {
            case .startDownload:
                // The archives an install or a check asks for together are queued together: one
                // wait for each store's disk instead of three for every pack, before any transfer.
                var batch = [action]
                while case .startDownload = remaining.first, let next = remaining.popFirst() { batch.append(next) }
                performed.append(await startDownloads(batch.compactMap(ArchiveRequest.init)))
            case let .cancelDownload(app, identifier):
                let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: identifier.packID)
                guard let download = pending[key], download.entry.version == identifier.version else { continue }
                if let rowID = download.rowID {
                    try? await queue.cancel(id: rowID)
                    // An essential phase waiting for it must not wait for ever.
                    performed.ended.append(PackEnd(app: app, rowID: rowID, packID: identifier.packID, failure: .backgroundAssets(
                        code: BAError.Code.downloadDoesNotExist.rawValue,
                        message: "The download of \(identifier.packID) version \(identifier.version) was cancelled.")))
                }
                await forgetPending(key)
            case let .withdrawDownload(app, identifier, heldArchive):
                await withdraw(app: app, identifier: identifier, heldArchive: heldArchive)
            case let .install(app, entry, archive):
                startUnpacking(archive, entry: entry, app: app)
            case let .record(pack):
                if let rowID = pending[pack.key]?.rowID {
                    performed.ended.append(PackEnd(app: pack.bundleIdentifier, rowID: rowID, packID: pack.packID, failure: nil))
                }
                installed[pack.key] = pack
                pending[pack.key] = nil  // its digests went with its download's end
                try? await store?.recordArrival(pack)
            case let .remove(app, packID):
                await removeFiles(app: app, packID: packID)
            case let .emit(app, event):
                if case let .failed(packID, _, failure) = event {
                    let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: packID)
                    if let rowID = pending[key]?.rowID {
                        performed.ended.append(PackEnd(app: app, rowID: rowID, packID: packID, failure: failure))
                    }
                    await forgetPending(key)
                }
                emit(event, app: app)
            }
        }
        return performed
    }

    /// Verifies and unpacks an archive on a thread of its own; at its end the coordinator, back on
    /// the caller's executor, records the pack and tells the service which downloads ended.
    private func startUnpacking(_ archive: URL, entry: AssetPackDownloadManifest.Entry, app: String,
                                isolation: isolated (any Actor)? = #isolation) {
        let identifier = AssetPackState.identifier(entry).description
        let rowID = pending[InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)]?.rowID
        let arrivals = arrivals
        guard let group = appGroups[app] else {
            StagingArea.release(handedOver: archive)
            if let rowID { arrivals.forget(rowID: rowID) }
            return
        }
        unpacking += 1
        let host = host
        let digests = rowID.flatMap { arrivals.take(rowID: $0, archive: archive) }
        if digests == nil, let rowID {
            // Neither this process nor a saved state saw the archive arrive whole: the archive on
            // disk has holes where its files' bytes were.
            StagingArea.release(handedOver: archive)
            activities.runIsolated("fetch \(identifier) of \(app) again") { [weak self] in
                guard let self else { return }
                settle(await fetchAgain(app: app, identifier: identifier, rowID: rowID, deviceNow: deviceNow))
            }
            return
        }
        activities.runIsolated("unpack \(identifier) of \(app)") { [weak self] in
            let result = await Self.offActor { () -> Result<InstallSize, AssetPackArchiveError> in
                // Named after the download while it unpacks, so a crash here is counted against this
                // pack alone and the third sets it aside (DownloadQueue.quarantine(after:)).
                if let rowID { Thread.nameCurrentThread(CrashReport.threadName(forRow: rowID, phase: .unpack)) }
                // Whatever the outcome, the archive is read no more: deleting it here frees its
                // pages on this thread rather than on the service's.
                defer {
                    StagingArea.release(handedOver: archive)
                    // The files were installed or refused: the state that found them goes too.
                    if let rowID { arrivals.release(rowID: rowID) }
                    Thread.nameCurrentThread("transfer")
                }
                return Result { () throws(AssetPackArchiveError) in
                    let (installation, sizeOnDisk) = try host.install(archive: archive, entry: entry, appGroup: group,
                                                                      digests: digests)
                    return InstallSize(installSize: installation.installSize, sizeOnDisk: sizeOnDisk)
                }
            }
            func refusal(_ error: AssetPackArchiveError) -> WireFailure {
                .backgroundAssets(code: BAError.Code.downloadInvalid.rawValue, message:
                    "The asset pack \(entry.id) version \(entry.version) was refused and nothing of it was installed: "
                    + error.problem + " Check the archive on the server against the manifest (ba-package download-manifest create).")
            }
            guard let self else { return }
            settle(await installEnded(app: app, identifier: identifier, result: result.mapError(refusal), deviceNow: deviceNow))
        }
    }

    /// Tells the service of the pack downloads that ended while nobody was calling the coordinator.
    private func settle(_ performed: Performed) {
        if !performed.ended.isEmpty { notify(.packsEnded(performed.ended)) }
    }

    /// Deletes a pack's files and its record.
    private nonisolated(nonsending) func removeFiles(app: String, packID: String) async {
        let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: packID)
        installed[key] = nil
        _ = try? await existingStore?.remove(app: app, packID: packID)
        guard let group = appGroups[app] else { return }
        let host = host
        _ = await Self.offActor { (try? host.remove(packID: packID, appGroup: group)) ?? false }
    }

    nonisolated(nonsending) func forgetPending(_ key: InstalledAssetPack.Key) async {
        guard let download = pending.removeValue(forKey: key) else { return }
        if let rowID = download.rowID { arrivals.forget(rowID: rowID) }
        try? await existingStore?.removePending(app: key.bundleIdentifier, packID: key.packID)
    }

    /// Sends an event to the app's watching connections, and records it.
    func emit(_ event: AssetPackEvent, app: String) {
        let receivers = watchers[app]?.values.sorted { $0.connection.id < $1.connection.id } ?? []
        for receiver in receivers { receiver.connection.send(.event(.assetPackStatus(event.wireEvent))) }
        // The archive's transfer is traced as any download's; these are what the pack's watchers learn.
        let name: String
        var version: Int?
        var detail: String?
        switch event {
        case .began, .paused, .downloading: return
        case let .finished(_, v): (name, version) = ("assetPackFinished", v)
        case let .failed(_, v, failure): (name, version, detail) = ("assetPackFailed", v, failure.message)
        case .removed: name = "assetPackRemoved"
        }
        let roles = Set(receivers.map(\.role)).sorted()
        let download = version.map { AssetPackDownloadIdentifier(packID: event.packID, version: $0).description } ?? event.packID
        trace.append(.init(from: "backgroundassetsd", to: roles.isEmpty ? "nobody" : roles.joined(separator: "+"), event: name,
                           app: app, download: download, detail: detail))
    }
}
