/*
Abstract:
A managed app's install, update and periodic content requests: which packs to download, as the extension agrees.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// The packs an install or update would download for the first time, for the managed
    /// extension's `shouldDownload(_:)`; newer versions of installed packs are not asked about.
    /// - Parameters:
    ///   - kind: Install or update.
    ///   - app: The app.
    ///   - manifest: Its manifest, fetched for this request.
    func candidates(for kind: ContentRequestKind, of app: InstalledApp, manifest: AssetPackDownloadManifest) -> [String] {
        know(app)
        let installedVersions = host.installedVersions(appGroup: app.bundle.appGroup)
        let plan = AssetPackPolicy.plan(for: .installation(Self.event(of: kind)), manifest: manifest, installed: installedVersions)
        return (plan.essential + plan.background).map(\.id).filter { installedVersions[$0] == nil }
    }

    /// The extension answered `shouldDownload(_:)`: the install's packs are scheduled, the essential
    /// ones as essential downloads of the install, the others (prefetch packs and updates) after it.
    /// - Parameters:
    ///   - app: The app.
    ///   - kind: Install or update.
    ///   - accepted: The packs the extension accepted, or `nil` when it does not adopt the managed
    ///     protocol (`typeName` names its type), which is recorded so the app's requests are refused.
    /// - Returns: The archives queued or kept, essential ones among them (those started ahead of
    ///   the answer too, ``startAhead(_:kind:candidates:)``).
    nonisolated(nonsending) func selectionReturned(_ app: InstalledApp, kind: ContentRequestKind, accepted: Set<String>?, typeName: String?) async -> Performed {
        know(app)
        let id = app.bundleIdentifier
        let isManaged = accepted != nil
        if isManaged { unmanagedExtensions[id] = nil } else { unmanagedExtensions[id] = typeName ?? "" }
        try? await store?.saveAdoption(app: id, isManaged: isManaged, typeName: typeName)
        // Each started ahead has its outcome now: kept, withdrawn, or its failure reported.
        let ahead = Set(state.awaitingAnswer(of: id).map(\.id))
        var performed = await answerAhead(id, accepted: accepted)
        guard let accepted, let (manifest, url) = manifests[id] else { return performed }
        let installedVersions = host.installedVersions(appGroup: app.bundle.appGroup)
        let plan = AssetPackPolicy.plan(for: .installation(Self.event(of: kind)), manifest: manifest, installed: installedVersions) {
            installedVersions[$0.id] != nil || (accepted.contains($0.id) && !ahead.contains($0.id))
        }
        performed.append(await perform(state.schedule(plan, app: id) { $0.archiveURL(relativeTo: url) }))
        return performed
    }

    /// The installation event of a content request.
    static func event(of kind: ContentRequestKind) -> AssetPackDownloadPolicy.InstallationEventType {
        kind == .update ? .subsequentUpdate : .firstInstallation
    }
}
