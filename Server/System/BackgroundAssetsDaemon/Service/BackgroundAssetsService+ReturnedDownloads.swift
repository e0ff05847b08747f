/*
Abstract:
What downloads(for:...) returned, scheduled: in parts as they arrive, then the return's rest, which ends the content request.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Schedules what `downloads(for:...)` returned with its return, after the parts it sent before
    /// (``extensionCallReturnedPart(callID:downloads:connection:)``), and ends the content request:
    /// the essential downloads held for the return are queued with the rest, and an install waits for
    /// all of them. Refusals reach the extension as failed downloads.
    /// - Parameter parts: What the call's parts did.
    func acceptReturnedDownloads(
        _ downloads: [DownloadDescriptor], for kind: ContentRequestKind, of app: String, after parts: ReturnedPartsTally = ReturnedPartsTally()
    ) async {
        var tally = parts
        let returnedBefore = tally.add(downloads.map(\.identifier))
        let scheduling = await scheduleReturnedDownloads(
            downloads, for: kind, of: app, returnedBefore: returnedBefore, holdingEssentials: false, queueing: tally.heldEssentials)
        tally.add(scheduling.outcome)
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "scheduleReturnedDownloads", app: app,
                           detail: "\(tally.scheduled) scheduled, \(tally.refused) refused"))
        let logFile = paths.logFile
        await perform(installs.downloadsQueued(
            app: app, kind: kind, returnedAny: tally.count > 0, essentialRows: scheduling.essentialRows,
            loggedErrors: { DeviceLogExcerpt.errors(in: logFile, category: "ext", since: $0) }))
        await tellExtension(scheduling.notices, of: app)
    }

    /// Queues refusal notices for an app's extension. A running extension's call queue holds at most
    /// ``ExtensionNoticeBacklog/batchSize`` of them, and the rest wait in its backlog file, which
    /// refills the queue as it drains: an install can refuse tens of thousands of downloads at once.
    func tellExtension(_ notices: [ExtensionCallRecord], of app: String) async {
        let held = extensionHost.heldNoticeCount(of: app)
        // One not running, or on its way out, gets them with a launch, as every call.
        guard let owed = extensionCalls.callsOwed(by: app), held > 0 || owed + notices.count > ExtensionNoticeBacklog.batchSize else {
            return await callExtension(of: app, notices)
        }
        // After notices already waiting in the backlog, none may overtake them.
        let room = held > 0 ? 0 : max(0, ExtensionNoticeBacklog.batchSize - owed)
        do {
            try extensionHost.holdNotices(notices.dropFirst(room).map(\.call), of: app)
            await callExtension(of: app, Array(notices.prefix(room)))
        } catch {
            logger.error("The failed-download notices for the extension of \(app) could not wait in a file, so they wait in memory: \(error)")
            await callExtension(of: app, notices)
        }
    }

    /// What scheduling some returned downloads did, with what is left to do.
    struct ReturnedDownloadsScheduling {
        var outcome = ScheduledReturn()
        /// The essential downloads queued, with their declared sizes.
        var essentialRows: [(id: Int64, size: Int64)] = []
        /// A `backgroundDownload(_:failedWithError:)` call for each refusal.
        var notices: [ExtensionCallRecord] = []
    }

    /// Validates returned downloads, admits them against the app's allowance and queues them in one
    /// transaction, higher priority first.
    /// - Parameters:
    ///   - returnedBefore: Identifiers that came earlier in the same answer: each is refused as returned twice.
    ///   - holdingEssentials: Whether admitted essential downloads wait for the call's return rather
    ///     than being queued now (``ScheduledReturn/heldEssentials``).
    ///   - held: Essential downloads admitted earlier and held until now, queued first.
    func scheduleReturnedDownloads(
        _ downloads: [DownloadDescriptor], for kind: ContentRequestKind, of app: String, returnedBefore: Set<String>,
        holdingEssentials: Bool, queueing held: [DownloadDescriptor] = []
    ) async -> ReturnedDownloadsScheduling {
        var scheduling = ReturnedDownloadsScheduling()
        var accepted = held
        var refused: [(DownloadDescriptor, WireFailure)] = []
        if !downloads.isEmpty, var installed = try? await registry.app(app) {
            var seen = returnedBefore
            // Those already on their way, found in one read: a read for each of thousands of downloads
            // cost more than scheduling them.
            let identifiers = downloads.map(\.identifier)
            let active = (try? await storeReader.read { try $0.activeIdentifiers(bundleIdentifier: app, among: identifiers) }) ?? []
            for download in downloads.sorted(by: { ($0.isEssential ? 1 : 0, $0.priority) > ($1.isEssential ? 1 : 0, $1.priority) }) {
                if let problem = refusal(of: download, for: kind, app: &installed, seen: seen) {
                    refused.append((download, problem))
                } else if active.contains(download.identifier) {
                    // Already on its way: returning it again changes nothing.
                    continue
                } else if download.isEssential, holdingEssentials {
                    scheduling.outcome.heldEssentials.append(download)
                } else {
                    accepted.append(download)
                }
                seen.insert(download.identifier)
            }
            let allowance = installed.allowance
            _ = try? await registry.update(app) { $0.allowance = allowance }
        }
        if accepted.contains(where: \.isEssential) || !scheduling.outcome.heldEssentials.isEmpty {
            await perform(installs.essentialDownloadsComing(app: app, kind: kind))
        }
        var rows: [DownloadRow] = []
        do {
            if !accepted.isEmpty { rows = try await queue.enqueue(accepted.map { NewDownload(bundleIdentifier: app, descriptor: $0) }) }
        } catch {
            logger.error("The downloads the extension of \(app) returned could not be queued: \(error).")
            refused += accepted.map { ($0, WireFailure.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue, message: "The service could not queue the download: \(error)")) }
        }
        scheduling.outcome.scheduled = rows.count
        scheduling.outcome.refused = refused.count
        scheduling.essentialRows = rows.filter(\.descriptor.isEssential).map { ($0.id, Int64($0.descriptor.fileSize)) }
        scheduling.notices = refused.map { download, failure in
            var failed = download
            failed.state = .failed
            return ExtensionCallRecord(call: .failed(download: failed, failure: failure), purpose: .notice)
        }
        return scheduling
    }

    /// Why a returned download cannot be scheduled, or `nil`; admits it against the allowance when it can.
    private func refusal(
        of download: DownloadDescriptor, for kind: ContentRequestKind, app: inout InstalledApp, seen: Set<String>
    ) -> WireFailure? {
        func refuse(_ code: BAError.Code, _ message: String) -> WireFailure {
            .backgroundAssets(code: code.rawValue, message: message)
        }
        let name = download.identifier.debugSummary
        if let problem = download.validationProblem() { return refuse(.downloadInvalid, problem) }
        if seen.contains(download.identifier) {
            return refuse(.downloadAlreadyScheduled, "The extension returned two downloads with the identifier \(name); give each download its own identifier.")
        }
        if download.applicationGroupIdentifier != app.bundle.appGroup {
            return refuse(.downloadInvalid, "The download \(name) names the app group \(download.applicationGroupIdentifier.debugSummary), which the app is not in; use \(app.bundle.appGroup.debugSummary).")
        }
        if download.isEssential, !kind.permitsEssentialDownloads {
            return refuse(.downloadEssentialDownloadNotPermitted, "The download \(name) is essential, but essential downloads are only accepted for install and update requests, not \(kind) ones. Return download.removingEssential() instead.")
        }
        do {
            try app.allowance.admit(allowanceRequest(for: download))
        } catch let error as BAError {
            return .backgroundAssets(code: error.code.rawValue, message: error.message)
        } catch {
            return refuse(.downloadInvalid, "\(error)")
        }
        return nil
    }
}
