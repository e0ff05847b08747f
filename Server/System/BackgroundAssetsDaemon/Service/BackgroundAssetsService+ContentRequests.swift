/*
Abstract:
Content requests: fetch the app's manifest and ask the extension for downloads (BackgroundAssetsService+ReturnedDownloads schedules them).
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
            trust: queue.trust)
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
                identifier: manifestURL.absoluteString, uniqueIdentifier: UUID.random().uuidString, kind: .manifest,
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

    /// The facts about a download the allowance needs.
    func allowanceRequest(for download: DownloadDescriptor) -> DownloadAllowance.Request {
        DownloadAllowance.Request(
            identifier: download.identifier, url: URL(string: download.url) ?? URL(fileURLWithPath: "/"),
            fileSize: download.fileSize, isEssential: download.isEssential, inAppContentEnabled: settings.inAppContent)
    }
}
