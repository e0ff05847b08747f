/*
Abstract:
An in-memory system for the asset-pack manager's tests: a manifest, recorded requests, installs and events on demand.
*/

import AssetPackFormat
@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport

/// Plays the system for ``AssetPackManager``: the test sets the manifest, sees each request, and
/// installs packs and sends events when it chooses.
final class InMemoryAssetPackSystem: AssetPackService {
    private struct State {
        var environment: ManagedAssetPackEnvironment
        var manifest = AssetPackDownloadManifest(assetPacks: [])
        var requests: [AssetPackDownloadManifest.Entry] = []
        var removals: [String] = []
        var manifestReads = 0
        var environmentReads = 0
        var requestFailure: BAError?
        var listeners: [AsyncStream<AssetPackEvent>.Continuation] = []
    }

    static let group = "group.com.example.packs"
    private let state: Mutex<State>
    let directory: TemporaryDirectory
    let layout: AssetPackContainerLayout

    init(adoption: ManagedAssetPackEnvironment.ExtensionAdoption = .adopted,
         settings: ManagedAssetPackSettings = ManagedAssetPackSettings(hasManagedAssetPacks: true, appGroupID: group)) throws {
        directory = try TemporaryDirectory(prefix: "asset-pack-manager")
        layout = AssetPackContainerLayout(appGroupContainer: directory.url)
        state = Mutex(State(environment: ManagedAssetPackEnvironment(
            bundleIdentifier: "com.example.packs", settings: settings, extensionAdoption: adoption, layout: layout)))
    }

    /// A manager over this system.
    func manager() -> AssetPackManager {
        AssetPackManager(service: self)
    }

    /// Publishes a manifest of packs, each `(id, version, policy)`.
    func publish(_ packs: [(String, Int, AssetPackDownloadPolicy)]) {
        let entries = packs.map { pack in
            AssetPackDownloadManifest.Entry(id: pack.0, version: pack.1, url: pack.0, downloadSize: 1000, downloadPolicy: pack.2)
        }
        state.withLock { $0.manifest = AssetPackDownloadManifest(assetPacks: entries) }
    }

    /// Installs a pack version as the system would once it is verified: files, then the `current` link.
    func install(_ packID: String, version: Int, files: [String: String]) throws {
        let folder = layout.versionDirectory(packID, version: version)
        for (path, contents) in files {
            let file = folder.appending(path: path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: file)
        }
        let link = layout.currentLink(packID).path
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: AssetPackContainerLayout.versionFolderName(version))
    }

    /// Sends an event to every listening manager.
    func send(_ event: AssetPackEvent) {
        for listener in state.withLock({ $0.listeners }) { listener.yield(event) }
    }

    /// Makes download requests fail with `error` from now on.
    func failRequests(with error: BAError) {
        state.withLock { $0.requestFailure = error }
    }

    var requests: [AssetPackDownloadManifest.Entry] { state.withLock { $0.requests } }
    var removals: [String] { state.withLock { $0.removals } }
    var manifestReads: Int { state.withLock { $0.manifestReads } }
    var environmentReads: Int { state.withLock { $0.environmentReads } }
    var listenerCount: Int { state.withLock { $0.listeners.count } }

    // MARK: - AssetPackService

    func environment() throws -> ManagedAssetPackEnvironment {
        state.withLock {
            $0.environmentReads += 1
            return $0.environment
        }
    }

    func latestManifest() async throws -> (manifest: AssetPackDownloadManifest, url: URL?) {
        state.withLock {
            $0.manifestReads += 1
            return ($0.manifest, URL(string: "http://127.0.0.1:1/asset-packs/manifest.json"))
        }
    }

    func requestDownload(of pack: AssetPackDownloadManifest.Entry) async throws -> AssetPackRequestOutcome {
        try state.withLock { state in
            if let failure = state.requestFailure { throw failure }
            state.requests.append(pack)
        }
        return layout.installedVersion(of: pack.id) == pack.version ? .alreadyInstalled : .scheduled
    }

    func removePack(withID packID: String) async throws -> Bool {
        state.withLock { $0.removals.append(packID) }
        guard FileManager.default.fileExists(atPath: layout.packDirectory(packID).path) else { return false }
        try FileManager.default.removeItem(at: layout.packDirectory(packID))
        send(.removed(packID: packID))
        return true
    }

    func checkForUpdates() async throws -> (updatingIDs: Set<String>, removedIDs: Set<String>) {
        let (manifest, _) = try await latestManifest()
        let outdated = layout.installedPacks().filter { id, version in manifest.entry(withID: id).map { $0.version > version } ?? false }
        return (Set(outdated.keys), [])
    }

    func downloadingPackIDs() async throws -> Set<String> {
        let installed = layout.installedPacks()
        return Set(requests.filter { installed[$0.id] != $0.version }.map(\.id))
    }

    func events() -> AsyncStream<AssetPackEvent> {
        let (stream, continuation) = AsyncStream<AssetPackEvent>.makeStream()
        state.withLock { $0.listeners.append(continuation) }
        return stream
    }
}
