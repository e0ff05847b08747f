/*
Abstract:
An install's essential packs downloaded while its extension starts and answers shouldDownload(_:): queued ahead, then kept or withdrawn.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// Queues the essential packs an install or update asks its extension about, before the
    /// extension answers: the manifest says what they are, and the extension's cold start and
    /// answer take longer than the transfers' first bytes.
    ///
    /// Until the answer, nothing of them is installed nor reported to the app (``AssetPackState/startAhead(_:app:archiveURL:)``),
    /// and the store marks them as awaiting it, so a service that restarts before the answer
    /// withdraws them (``withdrawAfterRestart(_:row:waitingFile:)``). The answer, when it comes,
    /// waits for them to be queued (``aheadQueued(_:)``).
    /// - Parameters:
    ///   - app: The app.
    ///   - kind: Install or update.
    ///   - candidates: The packs the extension is asked about (``candidates(for:of:manifest:)``).
    nonisolated(nonsending) func startAhead(_ app: InstalledApp, kind: ContentRequestKind, candidates: [String]) async {
        let id = app.bundleIdentifier
        guard let (manifest, url) = manifests[id] else { return }
        let asked = Set(candidates)
        let event = Self.event(of: kind)
        let essential = manifest.assetPacks.filter {
            asked.contains($0.id) && $0.downloadPolicy.isEssential && $0.downloadPolicy.applies(to: event)
        }
        guard !essential.isEmpty else { return }
        queueingAhead[id] = queueingAhead[id] ?? []
        await perform(state.startAhead(essential, app: id) { $0.archiveURL(relativeTo: url) })
        for waiter in queueingAhead.removeValue(forKey: id) ?? [] { waiter.resume() }
    }

    /// Returns once the packs an app's install is queueing ahead of its extension's answer are
    /// queued (at once when none are), so the answer finds each with its row.
    nonisolated(nonsending) func aheadQueued(_ app: String) async {
        guard queueingAhead[app] != nil else { return }
        await withCheckedContinuation { queueingAhead[app, default: []].append($0) }
    }

    /// The extension answered, or never will: the downloads started ahead of its answer that it
    /// accepted (or the app asked for meanwhile) go on, recorded as no longer awaiting it; the
    /// others are withdrawn.
    /// - Parameters:
    ///   - app: The app.
    ///   - accepted: The packs the extension accepted; `nil` when no answer will come.
    /// - Returns: The accepted downloads' rows as started essential ones, and the ends their held
    ///   failures make.
    nonisolated(nonsending) func answerAhead(_ app: String, accepted: Set<String>?) async -> Performed {
        await aheadQueued(app)
        let goingOn = state.goesOn(app: app, accepted: accepted)
        var kept: [PendingAssetPackDownload] = []
        var performed = Performed()
        for entry in state.awaitingAnswer(of: app) where goingOn.contains(entry.id) {
            let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)
            guard var download = pending[key], download.entry.version == entry.version else { continue }
            download.awaitsAnswer = false
            pending[key] = download
            kept.append(download)
            if let rowID = download.rowID, accepted?.contains(entry.id) == true {
                performed.started.append(.init(rowID: rowID, size: entry.downloadSize, isEssential: true))
            }
        }
        if !kept.isEmpty { try? await store?.savePending(kept) }
        performed.append(await perform(state.answered(app: app, accepted: accepted)))
        return performed
    }

    /// Cancels a download started ahead of the extension's answer that will not go on (the
    /// extension did not accept it, or the pack was removed first) and deletes what it wrote, with
    /// no event of its own: for the app, the pack was never on its way.
    nonisolated(nonsending) func withdraw(app: String, identifier: AssetPackDownloadIdentifier, heldArchive: URL?) async {
        if let heldArchive { StagingArea.release(handedOver: heldArchive) }
        let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: identifier.packID)
        guard let download = pending[key], download.entry.version == identifier.version else { return }
        if let rowID = download.rowID { try? await queue.cancel(id: rowID) }
        // The arrival goes with it: the files it wrote into the staging area are deleted.
        await forgetPending(key)
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "assetPackWithdrawn", app: app,
                           download: identifier.description,
                           detail: "started before the extension's answer and not accepted: cancelled, and what it wrote deleted"))
    }

    /// A pack download the last run of the service started ahead of an extension's answer that
    /// never came (the service stopped first): its row, staging file and archive are deleted, and
    /// its record forgotten. The install it belonged to then finds no essential download left.
    nonisolated(nonsending) func withdrawAfterRestart(_ download: PendingAssetPackDownload, row: DownloadRow?, waitingFile: URL?) async {
        if let row {
            _ = try? await queue.withStore { try $0.delete(id: row.id) }
            StagingArea(paths: paths).discard(rowID: row.id)
        }
        if let waitingFile { StagingArea.release(handedOver: waitingFile) }
        try? await existingStore?.removePending(app: download.app, packID: download.entry.id)
        logger.info("The asset pack \(download.entry.id) of \(download.app) was withdrawn: its download started before the extension's answer, which the service stopped before receiving.")
    }
}
