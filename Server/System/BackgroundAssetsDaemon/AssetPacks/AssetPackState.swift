/*
Abstract:
The asset packs being downloaded and installed: a value the service owns, that turns each happening into actions.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// Every pack download in progress, per app, and the rules that order what happens to them.
///
/// A value the service owns and tests drive directly, like ``TaskHost``: no I/O and no clock (the
/// caller passes the time). Each method takes what happened and returns the ``AssetPackAction``s
/// to perform, so status events always follow the order of the queue's own events: began, progress,
/// then finished (after the install) or failed.
public struct AssetPackState: Sendable {
    /// Where a pack download stands.
    public enum Phase: Sendable, Equatable {
        /// Scheduled; not transferring yet.
        case queued
        /// Transferring: bytes so far, and the archive's size.
        case downloading(completedBytes: Int64, totalBytes: Int64)
        /// Downloaded; being verified and unpacked.
        case installing
    }

    /// One pack version on its way to the device.
    public struct Activity: Sendable, Equatable {
        public var entry: AssetPackDownloadManifest.Entry
        public var phase: Phase
        public var isEssential: Bool
        /// Whether it started before the extension's `shouldDownload(_:)` answer, which it still
        /// awaits: its events are held back and its archive is not installed until the extension
        /// accepts it (``answered(app:accepted:)``).
        public var awaitsAnswer = false
        /// The progress last reported, and when, to space progress events out.
        var lastReport: (bytes: Int64, at: Date)?
        /// The archive that arrived while the answer was awaited.
        var heldArchive: URL?
        /// The failure that ended the download while the answer was awaited.
        var heldFailure: WireFailure?
        /// Whether the app asked for it while the answer was awaited: it goes on whatever the answer.
        var isRequested = false

        public static func == (lhs: Activity, rhs: Activity) -> Bool {
            lhs.entry == rhs.entry && lhs.phase == rhs.phase && lhs.isEssential == rhs.isEssential
                && lhs.awaitsAnswer == rhs.awaitsAnswer
        }
    }

    var activities: [InstalledAssetPack.Key: Activity] = [:]
    /// The least time between two progress events of one pack, unless a whole percent has passed.
    public var progressInterval: TimeInterval

    /// Creates an empty state.
    /// - Parameter progressInterval: The least time between two progress events of one pack.
    public init(progressInterval: TimeInterval = 0.25) {
        self.progressInterval = progressInterval
    }

    /// The pack downloads in progress for an app, by pack identifier.
    public func activities(of app: String) -> [String: Activity] {
        Dictionary(uniqueKeysWithValues: activities.filter { $0.key.bundleIdentifier == app }.map { ($0.key.packID, $0.value) })
    }

    // MARK: - Requests

    /// The app asks for a pack version (`ensureLocalAvailability`).
    /// - Parameters:
    ///   - app: The app.
    ///   - entry: The version it asks for, from the latest manifest.
    ///   - archiveURL: The archive's absolute URL.
    ///   - installedVersion: The version installed now, if any.
    /// - Returns: What became of the request, and the actions.
    public mutating func request(app: String, entry: AssetPackDownloadManifest.Entry, archiveURL: URL,
                                 installedVersion: Int?) -> (AssetPackRequestOutcome, [AssetPackAction]) {
        if installedVersion == entry.version { return (.alreadyInstalled, []) }
        let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)
        if let current = activities[key], current.entry.version == entry.version {
            // Asked for by the app itself, it no longer depends on the extension's answer.
            if current.awaitsAnswer { activities[key]?.isRequested = true }
            return (.joined, [])
        }
        return (.scheduled, start(app: app, entry: entry, archiveURL: archiveURL, isEssential: false))
    }

    /// Carries out a plan of ``AssetPackPolicy``: its downloads, then its removals.
    /// - Parameters:
    ///   - plan: The plan.
    ///   - app: The app.
    ///   - archiveURL: Each entry's archive URL; an entry without one is skipped.
    public mutating func schedule(_ plan: AssetPackPolicy.Plan, app: String,
                                  archiveURL: (AssetPackDownloadManifest.Entry) -> URL?) -> [AssetPackAction] {
        var actions: [AssetPackAction] = []
        for (entries, essential) in [(plan.essential, true), (plan.background, false)] {
            for entry in entries {
                let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)
                guard activities[key]?.entry.version != entry.version, let url = archiveURL(entry) else { continue }
                actions += start(app: app, entry: entry, archiveURL: url, isEssential: essential)
            }
        }
        for packID in plan.removals { actions += remove(app: app, packID: packID) }
        return actions
    }

    /// Removes a pack (the app's `remove(assetPackWithID:)`, an obsolete pack, storage pressure),
    /// cancelling its download if one runs.
    public mutating func remove(app: String, packID: String) -> [AssetPackAction] {
        var actions: [AssetPackAction] = []
        if let activity = activities.removeValue(forKey: InstalledAssetPack.Key(bundleIdentifier: app, packID: packID)) {
            let identifier = Self.identifier(activity.entry)
            // One the extension has yet to accept was never reported, and may hold its archive.
            actions.append(activity.awaitsAnswer ? .withdrawDownload(app: app, identifier: identifier, heldArchive: activity.heldArchive)
                : .cancelDownload(app: app, identifier: identifier))
        }
        return actions + [.remove(app: app, packID: packID), .emit(app: app, event: .removed(packID: packID))]
    }

    /// Takes up a pack version a previous run of the service was downloading: its row is still in
    /// the queue, and its events follow.
    public mutating func restore(app: String, entry: AssetPackDownloadManifest.Entry, isEssential: Bool) {
        activities[InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)] =
            Activity(entry: entry, phase: .queued, isEssential: isEssential)
    }

    /// Forgets every download of an app that is gone, with no actions: its rows go with it.
    public mutating func forget(app: String) {
        activities = activities.filter { $0.key.bundleIdentifier != app }
    }

    private mutating func start(app: String, entry: AssetPackDownloadManifest.Entry, archiveURL: URL,
                                isEssential: Bool) -> [AssetPackAction] {
        let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)
        var actions: [AssetPackAction] = []
        if let previous = activities[key] {
            // A newer version supersedes the one on its way.
            actions.append(.cancelDownload(app: app, identifier: Self.identifier(previous.entry)))
        }
        activities[key] = Activity(entry: entry, phase: .queued, isEssential: isEssential)
        actions.append(.startDownload(app: app, entry: entry, archiveURL: archiveURL, isEssential: isEssential))
        return actions
    }

    // MARK: - The queue's events

    /// The archive's download began or resumed.
    public mutating func downloadBegan(app: String, identifier: String) -> [AssetPackAction] {
        guard let (key, activity) = match(app, identifier) else { return [] }
        if case .queued = activity.phase { activities[key]?.phase = .downloading(completedBytes: 0, totalBytes: activity.entry.downloadSize) }
        guard !activity.awaitsAnswer else { return [] }
        return [.emit(app: app, event: .began(packID: activity.entry.id, version: activity.entry.version))]
    }

    /// The archive's download paused.
    public mutating func downloadPaused(app: String, identifier: String) -> [AssetPackAction] {
        guard let (_, activity) = match(app, identifier), !activity.awaitsAnswer else { return [] }
        return [.emit(app: app, event: .paused(packID: activity.entry.id, version: activity.entry.version))]
    }

    /// The archive's download wrote bytes; reported at most every ``progressInterval``, unless a
    /// whole percent passed or the download is complete.
    public mutating func downloadProgressed(app: String, identifier: String, written: Int64, expected: Int64,
                                            now: Date) -> [AssetPackAction] {
        guard let (key, activity) = match(app, identifier) else { return [] }
        let total = expected > 0 ? expected : activity.entry.downloadSize
        activities[key]?.phase = .downloading(completedBytes: written, totalBytes: total)
        guard !activity.awaitsAnswer else { return [] }
        if let last = activity.lastReport, written < total, now.timeIntervalSince(last.at) < progressInterval,
           (written - last.bytes) * 100 < total {
            return []
        }
        activities[key]?.lastReport = (written, now)
        return [.emit(app: app, event: .downloading(packID: activity.entry.id, version: activity.entry.version,
                                                    completedBytes: written, totalBytes: total))]
    }

    /// The archive is downloaded: verify and unpack it, or, while the extension's answer is
    /// awaited, keep it for then.
    public mutating func downloadFinished(app: String, identifier: String, file: URL) -> [AssetPackAction] {
        guard let (key, activity) = match(app, identifier) else { return [] }
        guard !activity.awaitsAnswer else {
            activities[key]?.heldArchive = file
            return []
        }
        activities[key]?.phase = .installing
        return [.install(app: app, entry: activity.entry, archive: file)]
    }

    /// The archive was verified and unpacked: record it and report it finished.
    public mutating func installFinished(app: String, identifier: String, installSize: Int64, sizeOnDisk: Int64,
                                         now: Date) -> [AssetPackAction] {
        guard let (key, activity) = match(app, identifier) else { return [] }
        activities[key] = nil
        let entry = activity.entry
        return [
            .record(InstalledAssetPack(bundleIdentifier: app, packID: entry.id, version: entry.version,
                                       downloadPolicy: entry.downloadPolicy, installSize: installSize, sizeOnDisk: sizeOnDisk,
                                       installed: now, lastUsed: now)),
            .emit(app: app, event: .finished(packID: entry.id, version: entry.version)),
        ]
    }

    /// The download, the verification or the unpacking failed; nothing was installed. While the
    /// extension's answer is awaited, the failure is reported only if it accepts the pack.
    public mutating func failed(app: String, identifier: String, failure: WireFailure) -> [AssetPackAction] {
        guard let (key, activity) = match(app, identifier) else { return [] }
        guard !activity.awaitsAnswer else {
            activities[key]?.heldFailure = failure
            return []
        }
        activities[key] = nil
        return [.emit(app: app, event: .failed(packID: activity.entry.id, version: activity.entry.version, failure: failure))]
    }

    /// The pack version a queue download identifier stands for, if this state awaits it.
    func match(_ app: String, _ identifier: String) -> (InstalledAssetPack.Key, Activity)? {
        guard let parsed = AssetPackDownloadIdentifier(parsing: identifier) else { return nil }
        let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: parsed.packID)
        guard let activity = activities[key], activity.entry.version == parsed.version else { return nil }
        return (key, activity)
    }

    /// The queue identifier of a pack version's download.
    public static func identifier(_ entry: AssetPackDownloadManifest.Entry) -> AssetPackDownloadIdentifier {
        AssetPackDownloadIdentifier(packID: entry.id, version: entry.version)
    }
}
