/*
Abstract:
Which apps have managed asset packs, why one may not, and their download manifests, fetched from BAManifestURL.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// What an installed app's Info.plist says about managed asset packs, read from its bundle, or
    /// the reason it cannot be read.
    func settings(of app: InstalledApp) -> Result<ManagedAssetPackSettings, AssetPackFormatError> {
        let file = app.appExecutable.deletingLastPathComponent().appending(path: "Info.plist", directoryHint: .notDirectory)
        return Result { () throws(AssetPackFormatError) in try ManagedAssetPackSettings(contentsOf: file) }
    }

    /// Whether the system manages the app's asset packs: its Info.plist sets `BAHasManagedAssetPacks`.
    func isManaged(_ app: InstalledApp) -> Bool {
        (try? settings(of: app).get())?.hasManagedAssetPacks == true
    }

    /// Why the app may not use the asset-pack manager, as the failure to answer its requests with,
    /// or `nil` when it may. Apple calls each of these a programmer error and stops the app.
    func refusal(for app: InstalledApp) -> WireFailure? {
        let prefix = "The app \(app.bundleIdentifier.debugDescription) uses AssetPackManager, but"
        let problem: String?
        switch settings(of: app) {
        case let .failure(error): problem = "its Info.plist cannot be used for asset packs (\(error))."
        case let .success(settings):
            problem = settings.managementProblem
        }
        if let problem {
            return Self.refusal("\(prefix) \(problem) Then install it again (backgroundassets-debug install).")
        }
        if case let .failure(failure) = manifestURL(of: app) { return failure }
        if let typeName = unmanagedExtensions[app.bundleIdentifier] {
            return Self.refusal("\(prefix) its downloader extension \(typeName) adopts BADownloaderExtension rather than "
                + "ManagedDownloaderExtension; the system manages packs only with the managed extension. Adopt "
                + "ManagedDownloaderExtension (implement shouldDownload(_:) or keep its default), then rebuild and install again.")
        }
        return nil
    }

    /// A refusal in Apple's words: the caller's connection is not accepted for this.
    static func refusal(_ message: String) -> WireFailure {
        .backgroundAssets(code: BAError.Code.callerConnectionNotAccepted.rawValue, message: message)
    }

    /// Fetches the app's download manifest from its `BAManifestURL` (or the Apple hosting server) now, and
    /// keeps it as the latest.
    /// - Returns: The manifest, its URL and its JSON, or the failure naming the URL or the field at fault.
    nonisolated(nonsending) func fetchManifest(of app: InstalledApp) async -> Result<(AssetPackDownloadManifest, URL, String), WireFailure> {
        let url: URL
        switch manifestURL(of: app) {
        case let .success(found): url = found
        case let .failure(failure): return .failure(failure)
        }
        nextManifestNumber += 1
        let fetcher = ManifestFetcher(
            folder: paths.stagingDirectory.appending(path: "manifests", directoryHint: .isDirectory),
            stallTimeout: configuration.stallTimeout, trust: queue.trust)
        switch await fetcher.fetch(url, name: "asset-packs-\(app.bundleIdentifier)-\(nextManifestNumber).json") {
        case let .failure(failure):
            return .failure(failure)
        case let .success(file):
            defer { unlink(file.path) }
            return readManifest(file, url: url, app: app.bundleIdentifier)
        }
    }

    /// Reads a manifest the service fetched, and keeps it as the app's latest.
    func readManifest(_ file: URL, url: URL, app: String) -> Result<(AssetPackDownloadManifest, URL, String), WireFailure> {
        do {
            let data = try Data(contentsOf: file)
            let manifest = try AssetPackDownloadManifest(parsing: data, source: url.absoluteString)
            manifests[app] = (manifest, url)
            return .success((manifest, url, String(decoding: data, as: UTF8.self)))
        } catch let error as AssetPackFormatError {
            return .failure(.backgroundAssets(code: BAError.Code.downloadInvalid.rawValue, message: "The asset-pack manifest "
                + "at BAManifestURL cannot be used: \(error) Fix it on the server (ba-package download-manifest create)."))
        } catch {
            return .failure(.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue,
                                              message: "The fetched manifest of \(app) could not be read: \(error)."))
        }
    }

    /// The manifest entry of a pack version: the latest manifest's, fetched again when it lists
    /// another version than the one asked for (the server may have published a new one).
    nonisolated(nonsending) func entry(of app: InstalledApp, packID: String, version: Int) async -> Result<(AssetPackDownloadManifest.Entry, URL), WireFailure> {
        var latest = manifests[app.bundleIdentifier]
        if latest?.manifest.entry(withID: packID)?.version != version {
            switch await fetchManifest(of: app) {
            case let .success((manifest, url, _)): latest = (manifest, url)
            case let .failure(failure): return .failure(failure)
            }
        }
        guard let latest, let entry = latest.manifest.entry(withID: packID) else {
            return .failure(.backgroundAssets(code: BAError.Code.downloadDoesNotExist.rawValue, message: "The app's "
                + "asset-pack manifest lists no pack \(packID.debugSummary); check the identifier against the manifest."))
        }
        guard entry.version == version else {
            return .failure(.backgroundAssets(code: BAError.Code.downloadDoesNotExist.rawValue, message: "The app's "
                + "asset-pack manifest now lists \(packID) version \(entry.version), not version \(version); get the "
                + "pack again with assetPack(withID:) and ask for that version."))
        }
        guard let archive = entry.archiveURL(relativeTo: latest.url), DownloadDescriptor.urlProblem(archive.absoluteString) == nil else {
            return .failure(.backgroundAssets(code: BAError.Code.downloadInvalid.rawValue, message: "The asset pack \(packID) "
                + "has the URL \(entry.url.debugSummary), which is not an https URL (or http on this machine); fix it in the manifest."))
        }
        return .success((entry, archive))
    }
}
