/*
Abstract:
The shell of the delivery of finished files: it feeds the service's happenings to DeliveryState and does what it returns.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Delivers a download's finished file to its owner (``DeliveryState/finished(_:delegates:isInstalled:isPresent:at:)``).
    func deliver(_ finished: FinishedFile) async {
        let actions = deliveries.finished(
            finished, delegates: delegateConnections(of: finished.app), isInstalled: installedApps.contains(finished.app),
            isPresent: Self.fileIsThere(finished.file), appHoldsControl: appHoldsExclusiveControl(finished.app),
            at: wallClock.now)
        await perform(actions)
    }

    /// Whether the app itself, not its extension, holds exclusive control: a file that finishes then
    /// with no delegate set waits, listed to the app, until it lets go (``DeliveryState``).
    func appHoldsExclusiveControl(_ app: String) -> Bool {
        arbiter.holder(of: app).flatMap { clients[$0]?.hello?.role } == .app
    }

    /// Sends on the files held while their app held exclusive control, for the apps that no longer do.
    func deliverFilesHeldUnderControl() async {
        for app in deliveries.appsHoldingFilesUnderControl.sorted() where !appHoldsExclusiveControl(app) {
            await perform(deliveries.controlLeft(
                app: app, delegates: delegateConnections(of: app), isInstalled: installedApps.contains(app),
                isPresent: Self.fileIsThere, at: wallClock.now))
        }
    }

    /// Holds the files an earlier run of the service left for their owners; called before the queue
    /// resumes any transfer. Asset-pack archives are the asset-pack subsystem's: they are returned,
    /// to be routed to it once the queue runs.
    func holdFilesLeftByEarlierRun() async -> [FinishedFile] {
        let found = (try? await queue.filesLeftForTheirOwners()) ?? []
        let files = found.filter { $0.row.descriptor.kind != .assetPack }
        for file in files {
            logger.info("Holding \(file.app)/\(file.row.descriptor.identifier) again: the service stopped before its file was taken.")
        }
        await perform(deliveries.found(files))
        return found.filter { $0.row.descriptor.kind == .assetPack }
    }

    /// A delegate of `app` was set: it receives what is held for the app, and what waits unsent for
    /// the extension is the app's now.
    func delegateSet(app: String) async {
        await perform(deliveries.delegateSet(app: app, delegates: delegateConnections(of: app), isPresent: Self.fileIsThere))
        await takeBackFromExtension(for: app)
    }

    /// The extension will never return from the call that gave it a finished file
    /// (``DeliveryState/extensionDidNotTake(_:delegates:isInstalled:isPresent:)``).
    func extensionDidNotTake(_ file: URL, rowID: Int64, of app: String) async {
        guard let row = try? await storeReader.read({ try $0.download(id: rowID) }) else {
            // No row, no download to give: the file belongs to nothing the service still tracks.
            StagingArea.release(handedOver: file)
            return
        }
        // Under its own name only: an extension that moved the file away took it.
        await perform(deliveries.extensionDidNotTake(
            FinishedFile(row: row, file: file), delegates: delegateConnections(of: app),
            isInstalled: installedApps.contains(app), isPresent: access(file.path, F_OK) == 0))
    }

    /// A delegate returned from `finishedWithFileURL`.
    func deliveryAcknowledged(_ id: UInt64, by connection: UInt64) async {
        await perform(deliveries.acknowledged(id, by: connection))
    }

    /// A connection closed: the offers it was the last to owe end now, and their files go on in an activity.
    func deliveriesConnectionClosed(_ connection: UInt64) {
        let actions = deliveries.connectionClosed(
            connection, delegates: { self.delegateConnections(of: $0) }, isInstalled: { self.installedApps.contains($0) },
            // Under its own name only: a delegate that moved the file away took it, though its
            // process ended before the acknowledgement arrived; the kept name is for restarts.
            isPresent: { access($0.path, F_OK) == 0 }, at: wallClock.now)
        guard !actions.isEmpty else { return }
        activities.run("deliveries of connection \(connection)") { [weak self] in await self?.perform(actions) }
    }

    /// Gives an app's delegate, just set, the finished files queued for its extension that have not
    /// gone out yet: the file goes to whoever is there when it leaves, and from now on that is the
    /// app. A file the extension already received stays the extension's, and is no longer listed
    /// to the app (see ``currentDownloads(of:for:)``).
    func takeBackFromExtension(for app: String) async {
        for record in extensionCalls.takeUnsentDeliveries(of: app) {
            guard case let .delivery(file, rowID) = record.purpose else { continue }
            guard let row = try? await storeReader.read({ try $0.download(id: rowID) }) else {
                StagingArea.release(handedOver: file)
                continue
            }
            logger.info("Handing \(app)/\(row.descriptor.identifier) to the app's delegate, set before its file went to the extension.")
            await deliver(FinishedFile(row: row, file: file))
        }
        // The files taken back no longer hold the app's control back.
        noteFileInHand(of: app)
    }

    /// How long after its start the service holds finished files for apps whose delegates are not connected yet.
    static var reconnectGrace: Double { DeliveryState.reconnectGrace }

    private func reconnectGraceEnded() async {
        graceTimer = nil
        await perform(deliveries.reconnectGraceEnded(
            at: wallClock.now, delegates: { self.delegateConnections(of: $0) }, isInstalled: { self.installedApps.contains($0) },
            isPresent: Self.fileIsThere, appHoldsControl: { self.appHoldsExclusiveControl($0) }))
    }

    private func perform(_ actions: [DeliveryAction]) async {
        for action in actions {
            switch action {
            case let .hold(finished):
                // The second name a hand-over keeps: the held file survives kills until its owner has it.
                StagingArea.keepSecondName(of: finished.file)
                traceEvent("finishedWithFileURL", row: finished.row, to: "backgroundassetsd",
                           detail: "held for a delegate reconnecting to the new service")
            case let .keepForApp(finished):
                StagingArea.keepSecondName(of: finished.file)
                traceEvent("finishedWithFileURL", row: finished.row, to: "backgroundassetsd",
                           detail: "the extension ended without taking it: kept for the app's delegate")
                logger.notice("The extension of \(finished.app) ended before it took \(finished.row.descriptor.identifier); its file is kept for the app's delegate.")
            case let .holdWhileAppHasControl(finished):
                StagingArea.keepSecondName(of: finished.file)
                traceEvent("finishedWithFileURL", row: finished.row, to: "backgroundassetsd",
                           detail: "held while the app holds exclusive control with no delegate: given to the extension when it lets go")
            case let .offer(id, finished, connections):
                let receivers = connections.sorted().compactMap { clients[$0] }
                for client in receivers {
                    client.connection.send(.event(.finished(deliveryID: id, download: finished.row.descriptor, filePath: finished.file.path)))
                }
                traceEvent("finishedWithFileURL", row: finished.row, receivers: receivers)
            case let .giveToExtension(finished):
                traceEvent("finishedWithFileURL", row: finished.row, receivers: [], detail: "no delegate connected: launching the extension")
                let call = ExtensionCallRecord(
                    call: .finished(download: finished.row.descriptor, filePath: finished.file.path),
                    purpose: .delivery(file: finished.file, rowID: finished.rowID))
                // In the extension's hands from here, also while its launch is prepared.
                extensionFilesOnTheirWay[finished.app, default: 0] += 1
                noteFileInHand(of: finished.app)
                await callExtension(of: finished.app, [call])
                extensionFilesOnTheirWay[finished.app, default: 1] -= 1
                if extensionFilesOnTheirWay[finished.app] == 0 { extensionFilesOnTheirWay[finished.app] = nil }
                noteFileInHand(of: finished.app)
            case let .release(finished, reason):
                if reason == .noOwner {
                    traceEvent("finishedWithFileURL", row: finished.row, receivers: [], detail: "its app is not installed: its file was deleted")
                    logger.notice("Download \(finished.app)/\(finished.row.descriptor.identifier) finished for an app that is not installed; its file was deleted.")
                }
                StagingArea.release(handedOver: finished.file)
            case let .fetchAgain(finished):
                await fetchAgain(finished)
            case let .armGraceTimer(deadline):
                graceTimer?.cancel()
                graceTimer = activities.at(deadline.addingTimeInterval(0.001), "deliver held files") { [weak self] in
                    await self?.reconnectGraceEnded()
                }
            }
        }
    }

    /// Puts a finished download whose file is gone back in line: it is never reported as delivered.
    private func fetchAgain(_ finished: FinishedFile) async {
        let row = finished.row
        logger.error("The file of download \(row.bundleIdentifier)/\(row.descriptor.identifier) is gone before its app had it; fetching it again.")
        traceEvent("finishedWithFileURL", row: row, to: "backgroundassetsd", detail: "its file is gone: fetching it again")
        do {
            try await queue.fetchAgain(id: row.id, because: "its file was gone before its app had it")
        } catch {
            logger.error("Could not put download \(row.bundleIdentifier)/\(row.descriptor.identifier) back in line: \(reasonText(error)).")
        }
    }

    /// The app's connections with a delegate set.
    private func delegateConnections(of app: String) -> Set<UInt64> {
        Set(clients.delegates(of: app).map(\.connection.id))
    }

    /// Whether a handed-over file is there, under its name or, when a process moved it and stopped
    /// before putting it in place, under its kept name, from which the name is made again.
    private static func fileIsThere(_ file: URL) -> Bool {
        let path = file.path
        if access(path, F_OK) == 0 { return true }
        return link(StagingArea.keptPath(of: path), path) == 0
    }
}
