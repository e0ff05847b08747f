/*
Abstract:
The asset-pack manager's link to this device: the app's Info.plist, its app group's packs, and the system service.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// The system side of the shared ``AssetPackManager`` in an app or extension process.
///
/// The app's configuration and its installed packs are read here, from the Info.plist and the app
/// group container, so ``AssetPackManager/contents(at:searchingInAssetPackWithID:options:)`` and an
/// `ensureLocalAvailability(of:)` of a pack already on the device need no round trip.
/// - Note: The requests that need the system service (the manifest from the server, downloads,
///   updates, removal) are answered with a `BAError` until the service's asset-pack subsystem
///   serves them over its socket.
struct SystemAssetPackService: AssetPackService {
    let identity: ProcessIdentity
    /// The main bundle's managed-pack keys, or why they cannot be used.
    let settings: Result<ManagedAssetPackSettings, BAError>

    /// The service of this process: its identity and its main bundle's Info.plist.
    static func current() -> SystemAssetPackService {
        let path = Bundle.main.bundleURL.appending(path: "Info.plist").path
        return SystemAssetPackService(identity: .current(), settings: Result {
            try ManagedAssetPackSettings(infoDictionary: Bundle.main.infoDictionary ?? [:], source: path)
        }.mapError { error in
            BAError(.callerConnectionNotAccepted, message: "The app's Info.plist cannot be used for asset packs: \(error)")
        })
    }

    func environment() throws -> ManagedAssetPackEnvironment {
        let settings = try settings.get()
        let container = settings.appGroupID.flatMap {
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0)
        }
        return ManagedAssetPackEnvironment(
            bundleIdentifier: identity.bundleIdentifier, settings: settings, extensionAdoption: .unknown,
            layout: container.map(AssetPackContainerLayout.init(appGroupContainer:)))
    }

    func latestManifest() async throws -> (manifest: AssetPackDownloadManifest, url: URL?) {
        throw unavailable("reading the asset-pack manifest")
    }

    func requestDownload(of pack: AssetPackDownloadManifest.Entry) async throws -> AssetPackRequestOutcome {
        throw unavailable("downloading the asset pack \(pack.id)")
    }

    func removePack(withID packID: String) async throws -> Bool {
        throw unavailable("removing the asset pack \(packID)")
    }

    func checkForUpdates() async throws -> (updatingIDs: Set<String>, removedIDs: Set<String>) {
        throw unavailable("checking for asset-pack updates")
    }

    func downloadingPackIDs() async throws -> Set<String> {
        []
    }

    func events() -> AsyncStream<AssetPackEvent> {
        AsyncStream { $0.finish() }
    }

    private func unavailable(_ what: String) -> BAError {
        BAError(.callerConnectionNotAccepted, message: "The Background Assets service of this device does not serve "
            + "asset-pack requests, so \(what) is not possible. Packs already installed in the app group can still "
            + "be read with contents(at:) and url(for:).")
    }
}
