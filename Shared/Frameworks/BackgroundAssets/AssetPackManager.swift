/*
Abstract:
The asset-pack manager: the app's view of its managed asset packs, their downloads and their status.
*/

import AssetPackFormat
import Foundation
import Synchronization

/// An actor that manages asset packs.
///
/// The first time that your code refers to the shared manager, Background Assets considers that
/// your app is opting into automatic system management of your asset packs.
///
/// ```swift
/// let pack = try await AssetPackManager.shared.assetPack(withID: "Tutorial")
/// try await AssetPackManager.shared.ensureLocalAvailability(of: pack)
/// let data = try AssetPackManager.shared.contents(at: "Videos/Introduction.m4v")
/// ```
/// - Important: When using the asset-pack manager, adopt ``ManagedDownloaderExtension`` in the
///   app's downloader extension, and set `BAHasManagedAssetPacks` and `BAAppGroupID` in the app's
///   Info.plist. Apple calls a missing piece a programmer error and stops the app; here every call
///   throws a `BAError` (``BAError/Code/callerConnectionNotAccepted``) that names the missing piece.
public actor AssetPackManager {
    /// The shared manager.
    public static let shared = AssetPackManager(service: SystemAssetPackService.current())

    /// An asynchronous sequence of download-status updates for all asset packs.
    public let statusUpdates: StatusUpdates

    nonisolated let service: any AssetPackService
    nonisolated let broadcaster: AssetPackStatusBroadcaster
    /// Turns the system's events into status updates, from the first use on.
    nonisolated let listener: AssetPackEventListener
    /// The app's environment once it passed the checks; checked again until it does.
    private nonisolated let checkedEnvironment = Mutex<ManagedAssetPackEnvironment?>(nil)
    /// The downloads this process awaits, by pack identifier; callers of one pack share one.
    var inFlight: [AssetPackDownloadIdentifier: AssetPackDownloadCompletion] = [:]
    /// The latest description of each pack seen, to put in status updates.
    var knownPacks: [String: AssetPack] = [:]

    /// Creates a manager over a system.
    /// - Parameter service: The system side: the service's client, or an in-memory system in tests.
    package init(service: any AssetPackService) {
        self.service = service
        let broadcaster = AssetPackStatusBroadcaster()
        let listener = AssetPackEventListener(service: service)
        self.broadcaster = broadcaster
        self.listener = listener
        statusUpdates = StatusUpdates(broadcaster: broadcaster, listener: listener, packID: nil)
        listener.deliver(to: self)
    }

    deinit {
        listener.stop()
    }

    /// Returns an asynchronous sequence of download-status updates for the asset pack with the specified ID.
    ///
    /// The sequence finishes after yielding ``DownloadStatusUpdate/finished(_:)`` or ``DownloadStatusUpdate/failed(_:_:)``.
    /// - Parameter assetPackID: The asset pack's ID.
    /// - Returns: An asynchronous sequence of download-status updates.
    public nonisolated func statusUpdates(forAssetPackWithID assetPackID: String)
        -> some Sendable & AsyncSequence<DownloadStatusUpdate, Never>
    {
        StatusUpdates(broadcaster: broadcaster, listener: listener, packID: assetPackID)
    }

    /// The app's environment, or the explained refusal when it may not use managed packs.
    nonisolated func environment() throws -> ManagedAssetPackEnvironment {
        if let checked = checkedEnvironment.withLock({ $0 }) { return checked }
        let environment = try service.environment()
        if let refusal = environment.refusal { throw refusal }
        checkedEnvironment.withLock { $0 = environment }
        return environment
    }

    /// Where the app's packs are installed; the environment's checks have passed.
    nonisolated func layout() throws -> AssetPackContainerLayout {
        let environment = try environment()
        // A passed check guarantees a layout; this only satisfies the type.
        guard let layout = environment.layout else {
            throw BAError(.callerConnectionNotAccepted, message: "The app group container of \(environment.bundleIdentifier) "
                + "cannot be used; check BAAppGroupID.")
        }
        return layout
    }

}
