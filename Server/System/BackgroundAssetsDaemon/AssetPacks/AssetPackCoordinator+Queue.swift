/*
Abstract:
The queue's events for pack archives, and the end of each unpack, turned into the packs' status and installs.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// An event of a row the system owns: the archive's transfer, its end, a challenge.
    ///
    /// A finished archive is unpacked; one nobody awaits any more (its pack was removed, or a newer
    /// version replaced it) is deleted. A server that asks for credentials gets none: there is no
    /// delegate to ask, so the download fails with the server's answer.
    /// - Returns: The pack downloads that ended.
    nonisolated(nonsending) func queueEvent(_ event: QueueEvent) async -> Performed {
        let row = event.row
        let app = row.bundleIdentifier
        let identifier = row.descriptor.identifier
        switch event {
        case .began:
            return await perform(state.downloadBegan(app: app, identifier: identifier))
        case .paused:
            return await perform(state.downloadPaused(app: app, identifier: identifier))
        case let .progress(_, _, total, expected):
            return await perform(state.downloadProgressed(app: app, identifier: identifier, written: total,
                                                          expected: expected, now: now))
        case let .finished(_, file):
            let actions = state.downloadFinished(app: app, identifier: identifier, file: file)
            // Kept, with the files its arrival wrote, until the extension answers whether it wants the pack.
            if state.isAwaitingAnswer(app: app, identifier: identifier) { return Performed() }
            if actions.isEmpty { StagingArea.release(handedOver: file) }
            defer { arrivals.forget(rowID: row.id) }  // its unpack took them; nobody else will
            return await perform(actions)
        case let .failed(_, failure):
            defer { arrivals.forget(rowID: row.id) }
            return await perform(state.failed(app: app, identifier: identifier, failure: failure))
        case .challenge:
            try? await queue.answerChallenge(id: row.id, answer: ChallengeAnswer(disposition: .performDefaultHandling))
            return Performed()
        case .redirected:
            return Performed()
        }
    }

    /// An archive finished downloading before the service restarted, and no saved state of its
    /// arrival covers it whole (``ArchiveArrivals``): it is fetched again from zero, under the same
    /// queue row, since the archive itself keeps only its header and trailer.
    /// - Returns: The pack downloads that ended: none while it is fetched again; the pack's failure
    ///   when it cannot be.
    nonisolated(nonsending) func fetchAgain(app: String, identifier: String, rowID: Int64, deviceNow: Date) async -> Performed {
        let reason = "its archive finished downloading before the service restarted, and no saved state of its arrival "
            + "covers the files written as it arrived"
        guard (try? await queue.fetchAgain(id: rowID, because: reason)) == true else {
            let failure = WireFailure.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue, message:
                "The asset pack download \(identifier) finished before the service restarted and could not be fetched again; "
                + "ask for the pack again (ensureLocalAvailability(of:)).")
            return await installEnded(app: app, identifier: identifier, result: .failure(failure), deviceNow: deviceNow)
        }
        unpacking -= 1
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "assetPackFetchedAgain", app: app,
                           download: identifier, detail: reason))
        return Performed()
    }

    /// An unpack ended: the version is recorded and reported finished, or reported failed.
    /// - Parameter deviceNow: The device's time, the install date storage pressure orders packs by.
    /// - Returns: The pack downloads that ended.
    nonisolated(nonsending) func installEnded(app: String, identifier: String, result: Result<InstallSize, WireFailure>,
                      deviceNow: Date) async -> Performed {
        unpacking -= 1
        switch result {
        case let .success(size):
            return await perform(state.installFinished(app: app, identifier: identifier, installSize: size.installSize,
                                                       sizeOnDisk: size.sizeOnDisk, now: deviceNow))
        case let .failure(failure):
            return await perform(state.failed(app: app, identifier: identifier, failure: failure))
        }
    }
}
