/*
Abstract:
The asset-pack subsystem of the service: its state, store and files, the manifests it fetches, and who watches.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import SystemLogging

/// Downloads, installs, updates and removes the managed asset packs of every app.
///
/// The behaviour of asset packs, as ``AssetPackState`` is their state and ``AssetPackPolicy`` their
/// rules. The service owns the coordinator and calls it on its own executor, as it calls the
/// extension host: the coordinator turns each request and each queue event into the state's
/// actions and performs them. Archives download through the service's ``DownloadQueue`` as rows of
/// the kind `assetPack`, which the system owns for the app: their files are verified and unpacked
/// here, on a thread of their own, never handed to a delegate or the extension. What ends later (an
/// unpack, a fetch again) runs on the service's executor too and calls the coordinator back
/// directly; what an end means for an install's essential phase goes to the service as a
/// ``PackEnd``: returned to a caller, or in a ``Notice`` when nobody was calling.
final class AssetPackCoordinator {
    /// What the coordinator tells the service when nobody was calling it.
    enum Notice: Sendable {
        /// Pack downloads ended later, after an unpack or a failed fetch again: installs waiting for
        /// them move on.
        case packsEnded([PackEnd])
    }

    /// The size of an installed version: its files, and what they occupy on disk.
    struct InstallSize: Sendable, Equatable {
        var installSize: Int64
        var sizeOnDisk: Int64
    }

    /// A pack version's download ended: installed, or failed with its reason.
    struct PackEnd: Sendable, Equatable {
        var app: String
        var rowID: Int64
        var packID: String
        var failure: WireFailure?
    }

    /// The space always left free when a pack is admitted: the archive and its files must fit beside it.
    static let reservedBytes: Int64 = 16 << 20

    /// Downloads in progress and the order of their events.
    var state = AssetPackState()
    /// Where the installed packs and the versions on their way are kept, across restarts.
    let storeURL: URL
    private var openedStore: AssetPackStore?
    /// The file work: unpacking, removing, measuring.
    let host: AssetPackHost
    let queue: DownloadQueue
    let storeReader: DownloadStoreReader
    let trace: ServiceTrace
    let activities: ServiceActivities
    let paths: DevicePaths
    let configuration: ServiceConfiguration
    let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")
    let notify: @Sendable (Notice) -> Void
    /// The device's clock, which may run faster than real time, for the install dates of packs
    /// whose unpack ends later; the service keeps it current.
    var deviceClock: DeviceClock

    /// The installed packs of every app, as the store records them.
    var installed: [InstalledAssetPack.Key: InstalledAssetPack] = [:]
    /// The pack versions on their way, by app and pack.
    var pending: [InstalledAssetPack.Key: PendingAssetPackDownload] = [:]
    /// The apps whose extension does not adopt `ManagedDownloaderExtension`, with its type's name.
    var unmanagedExtensions: [String: String] = [:]
    /// Each app's latest download manifest and where it came from.
    var manifests: [String: (manifest: AssetPackDownloadManifest, url: URL)] = [:]
    /// The connections that watch each app's packs, by app and connection.
    var watchers: [String: [UInt64: Watcher]] = [:]
    /// Each app's app group, where its packs are installed.
    var appGroups: [String: String] = [:]
    /// Archives being unpacked now.
    var unpacking = 0
    /// The archives' digests and files, written as their bytes arrive.
    let arrivals: ArchiveArrivals
    /// The packs whose download the app is asking for right now, which start in the foreground.
    var inForeground: Set<InstalledAssetPack.Key> = []
    /// The apps whose install is queueing packs ahead of its extension's answer, with the answers
    /// waiting for that to end (``aheadQueued(_:)``).
    var queueingAhead: [String: [CheckedContinuation<Void, Never>]] = [:]
    var nextManifestNumber = 0
    /// The device's Apple hosting server (`settings --apple-hosting-server`), where the packs of apps
    /// that set `BAUsesAppleHosting` are listed and served; the service keeps it current.
    var appleHostingServer: URL?

    /// Creates the coordinator.
    /// - Parameters:
    ///   - paths: The device root: its app group containers and its asset-pack store.
    ///   - configuration: The service's knobs (the manifest fetch's stall timeout).
    ///   - queue: The queue the archives download through.
    ///   - storeReader: The queue's reads.
    ///   - activities: The owner of the unpacks, and the clock.
    ///   - trace: Where every pack event is recorded.
    ///   - deviceClock: The device's clock, for the install dates of packs.
    ///   - notify: Receives the pack downloads that end later, for the service's installs.
    init(paths: DevicePaths, configuration: ServiceConfiguration, queue: DownloadQueue, storeReader: DownloadStoreReader,
         activities: ServiceActivities, trace: ServiceTrace, deviceClock: DeviceClock,
         notify: @escaping @Sendable (Notice) -> Void) {
        self.paths = paths
        self.configuration = configuration
        storeURL = paths.assetPackDatabase
        host = AssetPackHost(paths: paths)
        arrivals = ArchiveArrivals(paths: paths)
        self.queue = queue
        self.storeReader = storeReader
        self.activities = activities
        self.trace = trace
        self.deviceClock = deviceClock
        self.notify = notify
    }

    var now: Date { activities.wallClock.now }
    /// The device's time now.
    var deviceNow: Date { deviceClock.deviceTime(at: now) }

    /// The store, opened (and created) the first time something must be kept: a device whose apps
    /// have no managed packs spends no file descriptor on it.
    var store: AssetPackStore? {
        if let openedStore { return openedStore }
        do {
            openedStore = try AssetPackStore(url: storeURL)
        } catch {
            logger.error("The asset-pack store \(storeURL.path) could not be opened: \(error). Installed packs stay readable; check the device root.")
        }
        return openedStore
    }

    /// The store if it exists: what only reads or forgets needs no new file.
    var existingStore: AssetPackStore? {
        openedStore != nil || FileManager.default.fileExists(atPath: storeURL.path) ? store : nil
    }

    /// Whether the coordinator has work the service must stay up for: an archive being unpacked.
    var isBusy: Bool { unpacking > 0 }

    // MARK: - Starting

    /// Reads the store, takes up the downloads a previous run started, and deletes what interrupted
    /// unpacks left: a row still queued resumes (from its arrival's last checkpoint, whose files are
    /// kept), a finished one whose file waits is installed when the service hands it over again,
    /// and one that ended otherwise is forgotten.
    /// - Parameter apps: The installed apps.
    nonisolated(nonsending) func start(apps: [InstalledApp]) async {
        let arrivals = arrivals
        await queue.observeBodies { arrivals.observer(for: $0) }
        for app in apps { know(app) }
        let recorded = (try? await existingStore?.packs()) ?? []
        installed = Dictionary(recorded.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        unmanagedExtensions = (try? await existingStore?.unmanagedExtensions()) ?? [:]
        let staging = StagingArea(paths: paths)
        var liveRows: [DownloadRow] = []
        for download in (try? await existingStore?.pendingDownloads()) ?? [] {
            var row: DownloadRow?
            if let id = download.rowID { row = (try? await storeReader.read { try $0.download(id: id) }) ?? nil }
            let waitingFile = row.map { staging.handedOverFile(ofRow: $0.id, appGroup: $0.descriptor.applicationGroupIdentifier) } ?? nil
            if download.awaitsAnswer {
                await withdrawAfterRestart(download, row: row, waitingFile: waitingFile)
                continue
            }
            guard let row, row.state == .waiting || row.state == .downloading || row.state == .created
                || (row.state == .finished && waitingFile != nil)
            else {
                try? await existingStore?.removePending(app: download.app, packID: download.entry.id)
                continue
            }
            pending[download.key] = download
            liveRows.append(row)
            state.restore(app: download.app, entry: download.entry, isEssential: download.isEssential)
        }
        let kept = arrivals.restore(rows: liveRows)
        for path in host.removeLeftovers(appGroups: Array(Set(appGroups.values)), keeping: kept) {
            logger.info("Deleted \(path), left by an interrupted asset-pack install.")
        }
    }

    /// An app was uninstalled: its downloads are cancelled and its records forgotten. Its files go
    /// with its container, or here when another app shares the container.
    nonisolated(nonsending) func appRemoved(_ app: String, appGroup: String) async {
        for (key, download) in pending where key.bundleIdentifier == app {
            if let rowID = download.rowID {
                try? await queue.cancel(id: rowID)
                arrivals.forget(rowID: rowID)
            }
            pending[key] = nil
        }
        // An archive kept for an answer that will not come now has no row to go with.
        for case let archive? in state.activities(of: app).values.map(\.heldArchive) { StagingArea.release(handedOver: archive) }
        state.forget(app: app)
        for key in installed.keys where key.bundleIdentifier == app {
            installed[key] = nil
            let host = host
            _ = await Self.offActor { (try? host.remove(packID: key.packID, appGroup: appGroup)) ?? false }
        }
        try? await existingStore?.removeApp(app)
        manifests[app] = nil
        appGroups[app] = nil
        watchers[app] = nil
        unmanagedExtensions[app] = nil
    }

    // MARK: - Watchers

    /// A connection that receives an app's pack events, and the role of its process, for the trace.
    struct Watcher {
        let connection: ClientConnection
        let role: String
    }

    /// A connection of an app watches its packs' status.
    func watch(_ connection: ClientConnection, role: Hello.Role, app: String) {
        watchers[app, default: [:]][connection.id] = Watcher(connection: connection, role: role.rawValue)
    }

    /// Learns (again) where an app's packs are installed.
    func know(_ app: InstalledApp) {
        appGroups[app.bundleIdentifier] = app.bundle.appGroup
    }

    /// A connection closed.
    func disconnected(_ connection: UInt64) {
        for app in watchers.keys { watchers[app]?[connection] = nil }
    }

    /// Runs blocking work (file system, SQLite-free) on a thread of its own, so the service's
    /// executor stays free while it runs.
    static func offActor<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            TransferThreads.shared.run { continuation.resume(returning: body()) }
        }
    }
}
