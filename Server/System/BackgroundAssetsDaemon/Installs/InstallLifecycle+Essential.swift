/*
Abstract:
The install lifecycle's essential phase: each essential download's progress and end, and the phase's end.
*/

import BackgroundAssetsIPC
import Foundation

extension InstallLifecycle {
    /// An essential download wrote bytes: its install's progress advances.
    /// - Returns: No action when the row is not an essential download of a running install.
    mutating func essentialProgressed(app: String, rowID: Int64, totalWritten: Int64) -> [InstallAction] {
        guard run(of: app)?.essential?.contains(rowID) == true else { return [] }
        update(app) { $0.essential?.record(rowID: rowID, totalWritten: totalWritten) }
        return progressPush(of: app)
    }

    /// A download finished. An essential one's file is held for the extension until the phase ends.
    /// - Returns: `nil` when the row is not an essential download of a running install, so the file
    ///   goes on to its delivery.
    mutating func downloadFinished(app: String, rowID: Int64, download: DownloadDescriptor, file: URL) -> [InstallAction]? {
        guard run(of: app)?.essential?.contains(rowID) == true else { return nil }
        update(app) { $0.essential?.finish(rowID: rowID, download: download, file: file) }
        return essentialSettled(app)
    }

    /// A download failed. An essential one's failure is held for the extension until the phase ends.
    /// - Returns: `nil` when the row is not an essential download of a running install, so the
    ///   failure goes to the app's delegates.
    mutating func downloadFailed(app: String, rowID: Int64, download: DownloadDescriptor, failure: WireFailure) -> [InstallAction]? {
        guard run(of: app)?.essential?.contains(rowID) == true else { return nil }
        update(app) { $0.essential?.fail(rowID: rowID, download: download, failure: failure) }
        return essentialSettled(app)
    }

    /// Asset packs were installed or failed. An end that arrives before its install's essential
    /// phase began (the extension's answer is still being scheduled) waits for the phase.
    mutating func packsEnded(_ ends: [AssetPackCoordinator.PackEnd]) -> [InstallAction] {
        var actions: [InstallAction] = []
        for end in ends {
            guard let run = run(of: end.app) else { continue }
            guard let essential = run.essential else {
                update(end.app) { $0.packEndsBeforeEssentialPhase.append(.init(rowID: end.rowID, packID: end.packID, failure: end.failure)) }
                continue
            }
            guard essential.contains(end.rowID) else { continue }
            update(end.app) { $0.essential?.endPack(rowID: end.rowID, packID: end.packID, failure: end.failure) }
            actions += essentialSettled(end.app)
        }
        return actions
    }

    /// Starts an install's essential phase with the rows of its essential downloads.
    mutating func beginEssentialPhase(_ app: String, rows: [(id: Int64, size: Int64)], arePacks: Bool) {
        update(app) {
            $0.essential = EssentialPhase(rows: rows, arePacks: arePacks)
            $0.phase = .downloadingEssentialAssets
        }
    }

    /// One essential download settled: the gates see the progress, and once the last one settled
    /// the extension receives every outcome in one launch, the last call ending the install; with
    /// nothing to give it (packs are the system's own), the install ends now.
    private mutating func essentialSettled(_ app: String) -> [InstallAction] {
        let actions = progressPush(of: app)
        guard let phase = run(of: app)?.essential, phase.isComplete else { return actions }
        update(app) { $0.phase = .complete }
        var batch = phase.finished.map {
            ExtensionCallRecord(call: .finished(download: $0.download, filePath: $0.file.path), purpose: .delivery(file: $0.file, rowID: $0.rowID))
        } + phase.failed.map {
            ExtensionCallRecord(call: .failed(download: $0.download, failure: $0.failure), purpose: .notice)
        }
        guard !batch.isEmpty else { return actions + end(app, note: nil) }
        batch[batch.count - 1].completesInstall = true
        return actions + [.callExtension(app: app, batch)]
    }
}
