/*
Abstract:
Content requests: fetch the app's manifest, ask the extension for downloads, and schedule what it returns.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Sends an install, update or periodic content request to an app's extension.
    ///
    /// The manifest is fetched first; if that fails, the failure reaches the extension as a failed
    /// download of the manifest and no downloads are asked for.
    func requestContent(_ kind: ContentRequestKind, for app: String) async {
        guard let installed = try? await registry.app(app) else {
            // An install must still end, or the app would wait at its launch gate for ever.
            return await perform(installs.contentRequestEnded(
                app: app, kind: kind, note: "The app's record could not be read, so the extension was not asked for downloads."))
        }
        // An app without a downloader extension has nothing to download before it opens.
        guard installed.bundle.extension != nil else {
            return await perform(installs.contentRequestEnded(
                app: app, kind: kind, note: "It has no downloader extension, so nothing is downloaded before its first launch."))
        }
        // An Apple-hosted app's packs are listed on the device's Apple hosting server, not at a BAManifestURL.
        let manifestURL: URL
        let location = assetPacks.usesAppleHosting(installed) ? assetPacks.manifestURL(of: installed)
            : installed.bundle.app.manifestURL.map(Result.success) ?? .failure(Self.noManifestURL)
        switch location {
        case let .success(url):
            manifestURL = url
        case let .failure(failure):
            return await perform(installs.contentRequestEnded(app: app, kind: kind, note: failure.message))
        }
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "contentRequest", app: app, detail: "\(kind)"))
        installs.contentRequested(app: app, at: wallClock.now)
        // In-app content off: nothing of the app's runs before its first launch.
        if !settings.inAppContent, !installed.hasLaunched {
            return await perform(installs.contentRequestEnded(
                app: app, kind: kind, note: "In-app content is off in the device's settings, so the extension did not run before the first launch."))
        }
        let fetcher = ManifestFetcher(
            folder: paths.stagingDirectory.appending(path: "manifests", directoryHint: .isDirectory),
            stallTimeout: configuration.stallTimeout,
            trust: TrustedCertificates(directory: paths.trustDirectory))
        let result = await fetcher.fetch(manifestURL, name: "\(app)-\(allocateIdentifier()).json")
        switch result {
        case let .success(file):
            trace.append(.init(from: "asset-server", to: "backgroundassetsd", event: "manifest", app: app, detail: manifestURL.absoluteString))
            if await requestManagedContent(kind, of: installed, manifest: file) { return }
            let info = installed.allowance.extensionInfo
            let call = ExtensionCall.downloads(
                request: kind, manifestPath: file.path,
                restrictedDownloadSizeRemaining: info.restrictedDownloadSizeRemaining,
                restrictedEssentialDownloadSizeRemaining: info.restrictedEssentialDownloadSizeRemaining)
            await callExtension(of: app, [ExtensionCallRecord(call: call, purpose: .contentRequest(kind, manifest: file))])
        case let .failure(failure):
            trace.append(.init(from: "asset-server", to: "backgroundassetsd", event: "manifestFailed", app: app, detail: failure.message))
            let download = DownloadDescriptor(
                identifier: manifestURL.absoluteString, uniqueIdentifier: UUID().uuidString, kind: .manifest,
                url: manifestURL.absoluteString, headers: [:], fileSize: 0,
                applicationGroupIdentifier: installed.bundle.appGroup, priority: 0, isEssential: false, state: .failed)
            await perform(installs.contentRequestEnded(app: app, kind: kind, note: "\(failure.message) The extension returned no downloads.", contentFailure: failure.message))
            await callExtension(of: app, [ExtensionCallRecord(call: .failed(download: download, failure: failure), purpose: .notice)])
        }
    }

    /// Why an app with an extension but no `BAManifestURL` gets no content request.
    private static let noManifestURL = WireFailure.backgroundAssets(
        code: BAError.Code.downloadInvalid.rawValue,
        message: "It has no BAManifestURL, so nothing is downloaded before its first launch.")

    /// Schedules what `downloads(for:...)` returned; refusals reach the extension as failed downloads.
    func acceptReturnedDownloads(_ downloads: [DownloadDescriptor], for kind: ContentRequestKind, of app: String) async {
        guard var installed = try? await registry.app(app) else { return }
        var accepted: [DownloadDescriptor] = []
        var refused: [(DownloadDescriptor, WireFailure)] = []
        var seen: Set<String> = []
        // Those already on their way, found in one read: a read for each of thousands of downloads
        // cost more than scheduling them.
        let identifiers = downloads.map(\.identifier)
        let active = (try? await storeReader.read { store in
            Set(try identifiers.filter { try store.activeDownload(bundleIdentifier: app, identifier: $0) != nil })
        }) ?? []
        for download in downloads.sorted(by: { ($0.isEssential ? 1 : 0, $0.priority) > ($1.isEssential ? 1 : 0, $1.priority) }) {
            if let problem = refusal(of: download, for: kind, app: &installed, seen: seen) {
                refused.append((download, problem))
            } else if active.contains(download.identifier) {
                // Already on its way: returning it again changes nothing.
                continue
            } else {
                accepted.append(download)
            }
            seen.insert(download.identifier)
        }
        let allowance = installed.allowance
        _ = try? await registry.update(app) { $0.allowance = allowance }
        let essential = accepted.filter(\.isEssential)
        if !essential.isEmpty { await perform(installs.essentialDownloadsComing(app: app, kind: kind)) }
        var rows: [DownloadRow] = []
        do {
            rows = try await queue.enqueue(accepted.map { NewDownload(bundleIdentifier: app, descriptor: $0) })
        } catch {
            logger.error("The downloads the extension of \(app) returned could not be queued: \(error).")
            refused += accepted.map { ($0, WireFailure.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue, message: "The service could not queue the download: \(error)")) }
        }
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "scheduleReturnedDownloads", app: app,
                           detail: "\(rows.count) scheduled, \(refused.count) refused"))
        let logFile = paths.logFile
        await perform(installs.downloadsQueued(
            app: app, kind: kind, returnedAny: !downloads.isEmpty,
            essentialRows: rows.filter(\.descriptor.isEssential).map { ($0.id, Int64($0.descriptor.fileSize)) },
            loggedErrors: { DeviceLogExcerpt.errors(in: logFile, category: "ext", since: $0) }))
        let notices = refused.map { download, failure in
            var failed = download
            failed.state = .failed
            return ExtensionCallRecord(call: .failed(download: failed, failure: failure), purpose: .notice)
        }
        await callExtension(of: app, notices)
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

    /// The facts about a download the allowance needs.
    func allowanceRequest(for download: DownloadDescriptor) -> DownloadAllowance.Request {
        DownloadAllowance.Request(
            identifier: download.identifier, url: URL(string: download.url) ?? URL(fileURLWithPath: "/"),
            fileSize: download.fileSize, isEssential: download.isEssential, inAppContentEnabled: settings.inAppContent)
    }
}
