/*
Abstract:
Queueing pack archives: each admitted against the device's free space, then all recorded and queued in one transaction of each store.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// One archive to queue, from a ``AssetPackAction/startDownload(app:entry:archiveURL:isEssential:)``.
    struct ArchiveRequest {
        var app: String
        var entry: AssetPackDownloadManifest.Entry
        var archiveURL: URL
        var isEssential: Bool

        init?(_ action: AssetPackAction) {
            guard case let .startDownload(app, entry, archiveURL, isEssential) = action else { return nil }
            (self.app, self.entry, self.archiveURL, self.isEssential) = (app, entry, archiveURL, isEssential)
        }
    }

    /// Queues pack versions' archives, each once there is room for it and its files, in one
    /// transaction of each store.
    ///
    /// The room each needs is counted after the files of those before it in the list, which stay
    /// once unpacked; its archive only for itself, since it is deleted once unpacked.
    nonisolated(nonsending) func startDownloads(_ requests: [ArchiveRequest]) async -> Performed {
        var performed = Performed()
        let host = host
        var free = await Self.offActor { host.freeBytes() } ?? .max
        var admitted: [(download: PendingAssetPackDownload, row: NewDownload)] = []
        for request in requests {
            guard let group = appGroups[request.app] else { continue }
            let entry = request.entry
            switch AssetPackPolicy.admission(for: entry, app: request.app, freeBytes: free, reserve: Self.reservedBytes,
                                             installed: Array(installed.values)) {
            case .fits:
                break
            case let .fitsAfterRemoving(packs):
                for pack in packs {
                    trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "assetPackEvicted",
                                       app: pack.bundleIdentifier, download: pack.packID,
                                       detail: "\(pack.sizeOnDisk) bytes, to make room for \(request.app)'s \(entry.id)"))
                    performed.append(await perform(state.remove(app: pack.bundleIdentifier, packID: pack.packID)))
                }
                free = await Self.offActor { host.freeBytes() } ?? .max
            case let .doesNotFit(shortfall):
                let failure = WireFailure.backgroundAssets(code: BAError.Code.downloadWouldExceedAllowance.rawValue, message:
                    "The asset pack \(entry.id) version \(entry.version) needs \(shortfall) bytes more than the device has free, "
                    + "even after removing every on-demand and prefetch pack; free space on the device and ask again.")
                performed.append(await perform(state.failed(app: request.app, identifier: AssetPackState.identifier(entry).description,
                                                            failure: failure)))
                continue
            }
            free = max(0, free.addingSaturated(-(entry.installSize ?? entry.downloadSize)))
            let download = PendingAssetPackDownload(
                app: request.app, entry: entry, archiveURL: request.archiveURL, isEssential: request.isEssential,
                awaitsAnswer: state.isAwaitingAnswer(app: request.app, identifier: AssetPackState.identifier(entry).description))
            let descriptor = DownloadDescriptor(
                identifier: AssetPackState.identifier(entry).description, uniqueIdentifier: UUID.random().uuidString,
                kind: .assetPack, url: request.archiveURL.absoluteString, fileSize: Int(clamping: entry.downloadSize),
                applicationGroupIdentifier: group, isEssential: request.isEssential)
            admitted.append((download, NewDownload(bundleIdentifier: request.app, descriptor: descriptor,
                                                   isForeground: inForeground.contains(download.key))))
        }
        guard !admitted.isEmpty else { return performed }
        // Recorded before they are queued: a row without a record would finish with nobody to install it.
        for (download, _) in admitted { pending[download.key] = download }
        try? await store?.savePending(admitted.map(\.download))
        do {
            // Downloads ahead of an extension's answer need not wait for the disk to hold their rows:
            // a service that restarts withdraws them whether their rows survived or not, and their
            // transfers start sooner.
            let aheadOnly = admitted.allSatisfy(\.download.awaitsAnswer)
            let rows = try await queue.enqueue(admitted.map(\.row), durability: aheadOnly ? .soon : .synced)
            var queued: [PendingAssetPackDownload] = []
            for ((download, _), row) in zip(admitted, rows) {
                var download = download
                download.rowID = row.id
                pending[download.key] = download
                queued.append(download)
                performed.started.append(.init(rowID: row.id, size: download.entry.downloadSize, isEssential: download.isEssential))
            }
            try? await store?.savePending(queued)
        } catch {
            for (download, _) in admitted {
                let failure = WireFailure.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue,
                    message: "The service could not queue the asset pack \(download.entry.id): \(error).")
                performed.append(await perform(state.failed(app: download.app, identifier: AssetPackState.identifier(download.entry).description,
                                                            failure: failure)))
            }
        }
        return performed
    }
}
