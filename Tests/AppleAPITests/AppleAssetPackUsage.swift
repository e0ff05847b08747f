/*
Abstract:
Every public symbol of managed asset packs (iOS 26 and later), used as Apple's documentation declares it.
*/

// Written from Apple's declarations, not from this module's, like AppleAPIUsage.swift: if it builds
// (in Swift 6 and, through a symlink, in Swift 5 language mode), Apple code using asset packs builds.
// FilePath arguments are string literals, so no `import System` is needed, on either platform.
import BackgroundAssets
import Testing

// MARK: - A managed extension and an app's pack loader, as Apple developers write them

/// A managed downloader extension that leaves out a pack this device does not need.
struct AppleStyleManagedExtension: ManagedDownloaderExtension {
    func shouldDownload(_ assetPack: AssetPack) -> Bool {
        assetPack.id != "HighResolutionTextures"
    }
}

/// An app's main-actor model that loads a pack and shows its progress.
@MainActor
final class AppleStylePackLoader {
    var fractionCompleted = 0.0
    var statusText = ""

    func loadTutorial() async throws -> Data {
        let manager = AssetPackManager.shared
        let assetPack = try await manager.assetPack(withID: "Tutorial")
        let watcher = Task {
            for await update in manager.statusUpdates(forAssetPackWithID: assetPack.id) {
                show(update)
            }
        }
        defer { watcher.cancel() }
        try await manager.ensureLocalAvailability(of: assetPack)
        try await manager.ensureLocalAvailability(of: assetPack, requireLatestVersion: true)
        let descriptor = try manager.descriptor(for: "Videos/Introduction.m4v", searchingInAssetPackWithID: assetPack.id)
        try descriptor.close()
        let folder: URL = try manager.url(for: "Videos")
        statusText = folder.lastPathComponent
        return try manager.contents(at: "Videos/Introduction.m4v", searchingInAssetPackWithID: nil, options: .mappedIfSafe)
    }

    func show(_ update: AssetPackManager.DownloadStatusUpdate) {
        switch update {
        case .began(let assetPack):
            statusText = "Downloading \(assetPack.id) (\(assetPack.downloadSize) bytes)"
        case .paused:
            statusText = "Paused"
        case .downloading(_, let progress):
            fractionCompleted = progress.fractionCompleted
        case .finished(let assetPack):
            statusText = "\(assetPack.id) version \(assetPack.version) is ready"
        case .failed(_, let error):
            statusText = error.localizedDescription
        @unknown default:
            statusText = ""
        }
    }

    func watchEverything() async {
        for await update in await AssetPackManager.shared.statusUpdates {
            show(update)
        }
    }

    func maintain() async throws {
        let manager = AssetPackManager.shared
        let (updatingIDs, removedIDs) = try await manager.checkForUpdates()
        statusText = "\(updatingIDs.count) updating, \(removedIDs.count) removed"
        try await manager.checkForUpdates()
        for assetPack in try await manager.allAssetPacks where manager.assetPackIsAvailableLocally(withID: assetPack.id) {
            let status: AssetPack.Status = try await manager.status(relativeTo: assetPack)
            if status.contains(.outOfDate) || status.contains(.obsolete) {
                try await manager.remove(assetPackWithID: assetPack.id)
            }
        }
        let local: AssetPack.Status = await manager.localStatus(ofAssetPackWithID: "Tutorial")
        statusText = local.contains(.downloaded) ? "downloaded" : "not downloaded"
        let manifest: AssetPackManifest = try await manager.manifest
        statusText = manifest.assetPack(withID: "Tutorial")?.id ?? ""
    }

    /// The methods Apple deprecated in its 26.4 releases, from code marked deprecated itself.
    @available(*, deprecated, message: "Uses the methods deprecated in the 26.4 releases on purpose.")
    func deprecatedForms(_ assetPack: AssetPack) async throws -> AssetPack.Status {
        try await AssetPackManager.shared.ensureLocalAvailability(of: assetPack)
        return try await AssetPackManager.shared.status(ofAssetPackWithID: assetPack.id)
    }
}

/// A plain extension that manages packs itself, from the download manifest.
struct AppleStyleUnmanagedPackExtension: BADownloaderExtension {
    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo) -> Set<BADownload> {
        guard let manifest = try? AssetPackManifest(contentsOf: manifestURL, appGroupID: "group.com.example.packs") else {
            return []
        }
        var downloads = manifest.allDownloads(for: request)
        if let tutorial = manifest.assetPack(withID: "Tutorial") {
            downloads.insert(tutorial.download(for: request))
        }
        return downloads
    }
}

// MARK: - Tests

@Suite("Apple's asset-pack API, as Apple declares it")
struct AppleAssetPackUsageTests {
    static let manifest = Data("""
        { "assetPacks": [ { "id": "Tutorial", "version": 1, "url": "https://cdn.example.com/packs/Tutorial",
          "downloadSize": 1024, "downloadPolicy": { "essential": { "installationEventTypes": ["firstInstallation"] } } } ] }
        """.utf8)

    @Test("Status flags keep Apple's raw values and combine as an option set")
    func statusFlags() {
        let status: AssetPack.Status = [.downloaded, .outOfDate]
        #expect(status.contains(.downloaded) && !status.contains(.upToDate))
        #expect(AssetPack.Status.downloadAvailable.rawValue == 1 && AssetPack.Status.downloaded.rawValue == 64)
    }

    @Test("A manifest made from JSON lists its packs and their downloads")
    func manifestFromData() throws {
        let manifest = try AssetPackManifest(from: Self.manifest, appGroupID: "group.com.example.packs")
        let assetPack = try #require(manifest.assetPack(withID: "Tutorial"))
        #expect(assetPack.id == "Tutorial" && assetPack.version == 1 && assetPack.userInfo == nil)
        #expect(manifest.assetPacks == [assetPack])
        let download = assetPack.download(for: .install)
        #expect(download.isEssential)
        #expect(manifest.allDownloads(for: .install).count == 1)
    }

    @Test("The managed extension's filter and the errors read as Apple's do")
    func extensionAndErrors() throws {
        let manifest = try AssetPackManifest(from: Self.manifest, appGroupID: "group.com.example.packs")
        let assetPack = try #require(manifest.assetPack(withID: "Tutorial"))
        #expect(AppleStyleManagedExtension().shouldDownload(assetPack))
        let error: Error = ManagedBackgroundAssetsError.fileNotFound(at: "Videos/Introduction.m4v")
        switch error as? ManagedBackgroundAssetsError {
        case .assetPackNotFound(let id)?: Issue.record("not \(id)")
        case .fileNotFound(let path)?: #expect(path == "Videos/Introduction.m4v")
        case nil: Issue.record("not a ManagedBackgroundAssetsError")
        }
    }
}
