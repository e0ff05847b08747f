/*
Abstract:
Routing between the service and its asset-pack subsystem: the app's requests, the queue's pack events, and installs.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers a request of the asset-pack manager, from an installed app or its extension.
    func handleAssetPackRequest(_ request: ClientRequest.AssetPacks, hello: Hello, connection: UInt64) async -> ServerResponse {
        let app = hello.bundleIdentifier
        guard hello.role != .tool, installedApps.contains(app), let installed = try? await registry.app(app) else {
            return failure(.callerConnectionNotAccepted, "\(app.debugSummary) is not an installed app; install it with "
                + "backgroundassets-debug install, and use AssetPackManager from the app or its extension.")
        }
        if let refusal = assetPacks.refusal(for: installed) { return .failure(refusal) }
        switch request {
        case .fetchAssetPackManifest:
            switch await assetPacks.fetchManifest(of: installed) {
            case let .success((_, url, json)): return .assetPackManifest(AssetPackManifestReply(url: url.absoluteString, json: json))
            case let .failure(failure): return .failure(failure)
            }
        case let .requestAssetPack(packID, version):
            if let refusal = Self.packIDRefusal(packID) { return refusal }
            guard version >= 0 else {
                return failure(.downloadInvalid, "The asset pack \(packID) has no version \(version); versions are 0 or more.")
            }
            trace.append(.init(from: hello.role.rawValue, to: "backgroundassetsd", event: "requestAssetPack", app: app,
                               download: "\(packID) v\(version)"))
            switch await assetPacks.request(installed, packID: packID, version: version, deviceNow: deviceNow) {
            case let .success(outcome): return .assetPackRequest(outcome: outcome)
            case let .failure(failure): return .failure(failure)
            }
        case let .removeAssetPack(packID):
            if let refusal = Self.packIDRefusal(packID) { return refusal }
            trace.append(.init(from: hello.role.rawValue, to: "backgroundassetsd", event: "removeAssetPack", app: app, download: packID))
            let removed = await assetPacks.remove(installed, packID: packID)
            return .assetPackChanges(AssetPackChanges(removed: removed ? [packID] : []))
        case .checkAssetPackUpdates:
            trace.append(.init(from: hello.role.rawValue, to: "backgroundassetsd", event: "checkForUpdates", app: app))
            switch await assetPacks.checkForUpdates(installed) {
            case let .success(changes): return .assetPackChanges(changes)
            case let .failure(failure): return .failure(failure)
            }
        case .fetchDownloadingAssetPacks:
            return .assetPackChanges(AssetPackChanges(downloading: assetPacks.downloading(app)))
        case .watchAssetPacks:
            guard let client = clients[connection] else { return .done }
            assetPacks.watch(client.connection, role: hello.role, app: app)
            return .done
        }
    }

    private static func packIDRefusal(_ packID: String) -> ServerResponse? {
        guard let problem = AssetPackIdentifier.problem(with: packID) else { return nil }
        return .failure(.backgroundAssets(code: BAError.Code.downloadInvalid.rawValue, message: "The asset-pack identifier \(problem)"))
    }

    /// Why an install of an app that sets `BAHasManagedAssetPacks` is refused (Apple hosting, no app
    /// group), naming the key; `nil` when it is not refused.
    func managedAssetPackRefusal(appPlistPath: String) -> String? {
        do {
            let settings = try ManagedAssetPackSettings(contentsOf: URL(fileURLWithPath: appPlistPath))
            guard settings.hasManagedAssetPacks, let problem = settings.managementProblem else { return nil }
            return "\(appPlistPath): the app cannot have managed asset packs: \(problem)"
        } catch {
            return "\(error)"
        }
    }

    // MARK: - The queue and the unpacks

    /// An event of an archive the system downloads: to the asset-pack subsystem, and to the
    /// install whose essential phase the archive belongs to.
    func routeAssetPackEvent(_ event: QueueEvent) async {
        let row = event.row
        traceTransfer(event)
        if case let .progress(_, _, total, _) = event {
            await perform(installs.essentialProgressed(app: row.bundleIdentifier, rowID: row.id, totalWritten: total))
        }
        await packsEnded(await assetPacks.queueEvent(event).ended)
    }

    /// Records an archive's transfer as any download's, so a timeline draws it as a lane of its own.
    private func traceTransfer(_ event: QueueEvent) {
        let row = event.row
        switch event {
        case .began:
            progressSamples.forget(rowID: row.id)
            traceEvent("downloadDidBegin", row: row, to: "backgroundassetsd", detail: "asset pack")
        case .paused:
            traceEvent("downloadDidPause", row: row, to: "backgroundassetsd", detail: row.lastError?.message)
        case let .progress(_, _, total, expected):
            if progressSamples.keeps(rowID: row.id, written: total, expected: expected, at: wallClock.now) {
                traceEvent(TraceEntry.progressEvent, row: row, to: "backgroundassetsd")
            }
        case .finished:
            progressSamples.forget(rowID: row.id)
            traceEvent("finishedWithFileURL", row: row, to: "backgroundassetsd", detail: "asset pack: verifying and unpacking")
        case let .failed(_, failure):
            progressSamples.forget(rowID: row.id)
            traceEvent("failedWithError", row: row, to: "backgroundassetsd", detail: failure.message)
        case .challenge, .redirected:
            break
        }
    }

    /// Ends the essential pack downloads of installs whose pack downloads ended.
    func packsEnded(_ ended: [AssetPackCoordinator.PackEnd]) async {
        await perform(installs.packsEnded(ended))
    }

    // MARK: - Content requests of managed apps

    /// A content request of an app whose packs the system manages, with its manifest fetched: an
    /// install or update asks the extension which packs to download (`shouldDownload(_:)`); a
    /// periodic check updates installed packs and removes obsolete ones.
    /// - Returns: Whether the app is managed and the request was handled here.
    func requestManagedContent(_ kind: ContentRequestKind, of installed: InstalledApp, manifest file: URL) async -> Bool {
        // A content request fetched the manifest from where the app's packs are listed, so an app without
        // such a place never gets here.
        guard assetPacks.isManaged(installed), case let .success(url) = assetPacks.manifestURL(of: installed) else { return false }
        let app = installed.bundleIdentifier
        switch assetPacks.readManifest(file, url: url, app: app) {
        case let .failure(failure):
            unlink(file.path)
            trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "manifestFailed", app: app, detail: failure.message))
            await perform(installs.contentRequestEnded(app: app, kind: kind, note: failure.message, contentFailure: failure.message))
        case let .success((manifest, _, _)):
            guard kind != .periodic else {
                unlink(file.path)
                _ = await assetPacks.update(installed, to: manifest, at: url)
                return true
            }
            // The essential packs run first: nothing else of the app starts until they are installed.
            await perform(installs.essentialDownloadsComing(app: app, kind: kind))
            let candidates = assetPacks.candidates(for: kind, of: installed, manifest: manifest)
            // The essential packs the extension is asked about download while it starts and answers,
            // installed only if it accepts them. Queued before it is called, so a call that cannot be
            // made (its abandonment withdraws them) finds them queued.
            await assetPacks.startAhead(installed, kind: kind, candidates: candidates)
            await callExtension(of: app, [ExtensionCallRecord(
                call: .shouldDownload(manifestPath: file.path, packIDs: candidates), purpose: .contentRequest(kind, manifest: file))])
            // The extension takes a while to start; its answer is kept in the asset-pack store, which a
            // device's first managed app creates, so the store is made ready while the extension starts.
            _ = assetPacks.store
        }
        return true
    }

    /// The extension answered `shouldDownload(_:)`: the packs it accepted are scheduled (or go on,
    /// when they started ahead of the answer), the others started ahead are withdrawn, and an
    /// install waits for the essential ones; an extension that is not managed ends the install with why.
    func assetPackSelectionReturned(_ result: ExtensionCallResult, kind: ContentRequestKind, of app: String) async {
        guard let installed = try? await registry.app(app) else { return }
        var accepted: Set<String>? = []
        var typeName: String?
        switch result {
        case let .assetPackSelection(ids): accepted = Set(ids)
        case let .notManagedExtension(name): (accepted, typeName) = (nil, name)
        case .downloads, .challengeAnswer, .done: break
        }
        let performed = await assetPacks.selectionReturned(installed, kind: kind, accepted: accepted, typeName: typeName)
        let selection: InstallLifecycle.PackSelection = accepted == nil
            ? .notManaged(note: assetPacks.refusal(for: installed)?.message)
            : .accepted(essentialRows: performed.started.filter(\.isEssential).map { ($0.rowID, $0.size) })
        await perform(installs.packSelectionReturned(app: app, selection, ended: performed.ended))
    }

    /// The extension will not answer `shouldDownload(_:)` (it crashed, ran out of time or cannot
    /// run): the packs started ahead of its answer are withdrawn, as when it accepts none.
    func assetPackSelectionAbandoned(of app: String) async {
        await packsEnded(await assetPacks.answerAhead(app, accepted: nil).ended)
    }
}
