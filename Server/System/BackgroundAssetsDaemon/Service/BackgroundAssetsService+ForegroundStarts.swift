/*
Abstract:
Inserting the foreground starts answered before their rows, and holding other requests until they are in.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers a new foreground download before its row is inserted: it is inserted with the others
    /// answered meanwhile (``ForegroundStartInserts``).
    /// - Returns: The download as the insert will store it, waiting for its turn.
    func startSoon(_ download: NewDownload) -> DownloadDescriptor {
        var download = download
        download.descriptor.state = .waiting
        if foregroundStarts.add(download) {
            activities.runIsolated("insert foreground starts") { [weak self] in await self?.insertForegroundStarts() }
        }
        return download.descriptor
    }

    /// Waits until every foreground start answered before this call is inserted: what a request
    /// that reads or changes downloads does first, so it never misses a download the app was told
    /// had started.
    func awaitAnsweredForegroundStarts() async {
        guard !foregroundStarts.isSettled else { return }
        let target = foregroundStarts.waitTarget
        await withCheckedContinuation { foregroundStarts.wait(until: target, $0) }
    }

    /// Inserts the answered starts, a batch at a time, until none is waiting.
    private func insertForegroundStarts() async {
        while true {
            let batch = foregroundStarts.takeWaiting()
            guard !batch.isEmpty else { return }
            let outcomes: [Result<DownloadRow, any Error>]
            do {
                outcomes = try await queue.enqueueEach(batch, durability: .soon).map { $0.mapError { $0 } }
            } catch {
                outcomes = batch.map { _ in .failure(error) }
            }
            for (download, outcome) in zip(batch, outcomes) {
                if case let .failure(error) = outcome { await insertFailed(download, error) }
            }
            for waiter in foregroundStarts.inserted(batch) { waiter.resume() }
        }
    }

    /// An answered start that could not be inserted: a download the extension scheduled meanwhile
    /// is promoted, as a start of a scheduled download is; any other failure reaches the app's
    /// delegate as `failedWithError`, since the app was told the download had started.
    private func insertFailed(_ download: NewDownload, _ error: any Error) async {
        let app = download.bundleIdentifier
        let identifier = download.descriptor.identifier
        if case .downloadAlreadyScheduled? = error as? DaemonError,
           let row = try? await storeReader.read({ try $0.activeDownload(bundleIdentifier: app, identifier: identifier) }),
           (try? await queue.promote(id: row.id)) != nil {
            return
        }
        let failure = WireFailure.backgroundAssets(
            code: BAError.Code.downloadFailedToStart.rawValue,
            message: "The service answered the foreground start of \(identifier.debugSummary) but could not record it: \(reasonText(error)). Start the download again.")
        logger.error("Could not record the foreground download \(app)/\(identifier) it had answered for: \(reasonText(error)).")
        await reportFailure(of: download.descriptor, app: app, failure) { receivers in
            trace.append(.init(from: "backgroundassetsd", to: Self.receiverName(receivers), event: "failedWithError",
                               app: app, download: identifier, detail: failure.message))
        }
    }
}
