/*
Abstract:
Parts of what an extension's entry point returned, sent before the call's return so no frame holds every download, and scheduled as they arrive.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Schedules part of the downloads the running `downloads(for:...)` call of an extension returned,
    /// as the whole answer would be, and tallies it with the call; the call's `extensionCallReturned`
    /// brings the rest and ends the content request (``acceptReturnedDownloads(_:for:of:after:)``).
    func extensionCallReturnedPart(callID: UInt64, downloads: [DownloadDescriptor], connection: UInt64) async -> ServerResponse {
        let part: ExtensionCallLifecycle.ReturnedPart
        do {
            part = try extensionCalls.partReturned(downloads.map(\.identifier), callID: callID, connection: connection)
        } catch {
            switch error {
            case .noSuchCall:
                return failure(.callerConnectionInvalid, "No extension call \(callID) is running on this connection; it may have timed out.")
            case let .notDownloads(entryPoint):
                return failure(.downloadInvalid, "Extension call \(callID) runs \(entryPoint), which does not answer with downloads; only downloads(for:manifestURL:extensionInfo:) sends its answer in parts.")
            case let .tooMany(count):
                return failure(.downloadInvalid, "Extension call \(callID) returned \(count) downloads in its parts, more than the \(ExtensionCallLifecycle.maximumReturnedDownloads) the service schedules for one call (ExtensionCallLifecycle.maximumReturnedDownloads); this part is not scheduled, and the parts before it stay scheduled.")
            }
        }
        let scheduling = await scheduleReturnedDownloads(
            downloads, for: part.kind, of: part.app, returnedBefore: part.returnedBefore, holdingEssentials: true)
        if !extensionCalls.partScheduled(scheduling.outcome, callID: callID, connection: connection),
            !scheduling.outcome.heldEssentials.isEmpty {
            // The process ended while the part was queued, and the call ended without this part:
            // its essential downloads are queued now, as ordinary ones, since no install waits for them any more.
            await queueOrphanedEssentials(scheduling.outcome.heldEssentials, of: part.app)
        }
        await tellExtension(scheduling.notices, of: part.app)
        return .done
    }

    /// A `downloads(for:...)` call's process ended after it sent parts of its answer and before it
    /// returned: what the parts scheduled stands, as downloads the extension asked for, and the content
    /// request ends as if the call had returned them.
    func partlyReturned(_ record: ExtensionCallRecord, parts: ReturnedPartsTally, of app: String, reason: String) async {
        guard case let .contentRequest(kind, manifest) = record.purpose else { return }
        unlink(manifest.path)
        logger.error("The extension of \(app) ended (\(reason)) after it returned \(parts.count) downloads in parts, before the rest of its answer; those it returned stay scheduled.")
        await acceptReturnedDownloads([], for: kind, of: app, after: parts)
    }

    /// Queues essential downloads held for a call's return that ended without them.
    private func queueOrphanedEssentials(_ downloads: [DownloadDescriptor], of app: String) async {
        do {
            _ = try await queue.enqueue(downloads.map { NewDownload(bundleIdentifier: app, descriptor: $0) })
        } catch {
            logger.error("The essential downloads the extension of \(app) returned could not be queued: \(error).")
        }
    }
}
