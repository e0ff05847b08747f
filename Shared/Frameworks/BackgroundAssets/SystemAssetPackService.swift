/*
Abstract:
The asset-pack manager's link to this device: the app's Info.plist, its app group's packs, and the system service.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import ServiceClient

/// The system side of the shared ``AssetPackManager`` in an app or extension process.
///
/// The app's configuration and its installed packs are read here, from the Info.plist and the app
/// group container, so ``AssetPackManager/contents(at:searchingInAssetPackWithID:options:)`` and an
/// `ensureLocalAvailability(of:)` of a pack already on the device need no round trip. Everything
/// else goes to the system service over a connection of its own, which watches the app's pack events
/// from the first time they are asked for; the service starts on demand, as for `BADownloadManager`.
struct SystemAssetPackService: AssetPackService {
    let identity: ProcessIdentity
    /// The main bundle's managed-pack keys, or why they cannot be used.
    let settings: Result<ManagedAssetPackSettings, BAError>
    let connection: ServiceConnection
    let feed: AssetPackEventFeed

    /// The service of this process: its identity, its main bundle's Info.plist, and the device's service.
    static func current() -> SystemAssetPackService {
        let identity = ProcessIdentity.current()
        let settings = Self.settings(of: Bundle.main, identity: identity)
        let paths = DevicePaths.current()
        return SystemAssetPackService(identity: identity, settings: settings, paths: paths,
                                      launcher: ServiceLauncher.besideExecutable(paths: paths))
    }

    /// The managed-pack keys of a bundle's Info.plist, or why they cannot be used.
    ///
    /// A bundle without an Info.plist is an app started from its build folder that was never
    /// installed: it is told to install, not to add keys its Info.plist may well have.
    static func settings(of bundle: Bundle, identity: ProcessIdentity) -> Result<ManagedAssetPackSettings, BAError> {
        guard let info = bundle.infoDictionary, info["CFBundleIdentifier"] != nil else {
            return .failure(BAError(.callerConnectionNotAccepted, message: "The app \(identity.bundleIdentifier.debugDescription) "
                + "is not installed, so the system knows nothing of its asset packs. Install it with its extension "
                + "(backgroundassets-debug install --app-plist PATH --extension-plist PATH --wait), then run it again."))
        }
        let path = bundle.bundleURL.appending(path: "Info.plist").path
        return Result {
            try ManagedAssetPackSettings(infoDictionary: info, source: path)
        }.mapError { error in
            BAError(.callerConnectionNotAccepted, message: "The app's Info.plist cannot be used for asset packs: \(error)")
        }
    }

    /// Creates the service's client for a device root.
    /// - Parameters:
    ///   - identity: What this process presents to the service.
    ///   - settings: The app's managed-pack keys, or why they cannot be used.
    ///   - paths: The device root.
    ///   - launcher: Starts the service when it is not running; `nil` never starts it.
    init(identity: ProcessIdentity, settings: Result<ManagedAssetPackSettings, BAError>, paths: DevicePaths,
         launcher: ServiceLauncher?) {
        self.identity = identity
        self.settings = settings
        let feed = AssetPackEventFeed()
        self.feed = feed
        connection = ServiceConnection(socketPath: paths.serviceSocket.path, hello: identity.hello, launcher: launcher) { event in
            if case let .assetPackStatus(event) = event, let packEvent = AssetPackEvent(wireEvent: event) { feed.publish(packEvent) }
        }
    }

    func environment() throws -> ManagedAssetPackEnvironment {
        let settings = try settings.get()
        let container = settings.appGroupID.flatMap {
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0)
        }
        // Whether the extension adopts the managed protocol is the system's to know: it asks the
        // extension at install, and refuses the app's requests with the reason when it does not.
        return ManagedAssetPackEnvironment(
            bundleIdentifier: identity.bundleIdentifier, settings: settings, extensionAdoption: .unknown,
            layout: container.map(AssetPackContainerLayout.init(appGroupContainer:)))
    }

    func latestManifest() async throws -> (manifest: AssetPackDownloadManifest, url: URL?) {
        guard case let .assetPackManifest(reply) = try await connection.send(.assetPacks(.fetchAssetPackManifest)) else {
            throw unexpected("fetchAssetPackManifest")
        }
        return (try AssetPackDownloadManifest(parsing: Data(reply.json.utf8), source: reply.url), URL(string: reply.url))
    }

    func requestDownload(of pack: AssetPackDownloadManifest.Entry) async throws -> AssetPackRequestOutcome {
        guard case let .assetPackRequest(outcome) = try await connection.send(.assetPacks(.requestAssetPack(packID: pack.id, version: pack.version)))
        else { throw unexpected("requestAssetPack") }
        return outcome
    }

    func removePack(withID packID: String) async throws -> Bool {
        try await changes(.assetPacks(.removeAssetPack(packID: packID)), "removeAssetPack").removed.contains(packID)
    }

    func checkForUpdates() async throws -> (updatingIDs: Set<String>, removedIDs: Set<String>) {
        let changes = try await changes(.assetPacks(.checkAssetPackUpdates), "checkAssetPackUpdates")
        return (Set(changes.updating), Set(changes.removed))
    }

    func downloadingPackIDs() async throws -> Set<String> {
        Set(try await changes(.assetPacks(.fetchDownloadingAssetPacks), "fetchDownloadingAssetPacks").downloading)
    }

    func events() -> AsyncStream<AssetPackEvent> {
        let stream = feed.subscribe()
        // Sent before any request that follows on this connection, and again after a reconnection,
        // so no event of a download requested from now on is missed.
        connection.replayOnReconnect(.assetPacks(.watchAssetPacks))
        connection.request(.assetPacks(.watchAssetPacks)) { _ in }
        return stream
    }

    private func changes(_ request: ClientRequest, _ name: String) async throws -> AssetPackChanges {
        guard case let .assetPackChanges(changes) = try await connection.send(request) else { throw unexpected(name) }
        return changes
    }

    private func unexpected(_ request: String) -> BAError {
        BAError(.callerConnectionInvalid, message: "The Background Assets service answered \(request) in a way this "
            + "framework does not expect. Rebuild the app and the service from the same sources.")
    }
}
