/*
Abstract:
Essential packs started before the extension's shouldDownload(_:) answer: held back until it accepts them, withdrawn when it does not.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackState {
    /// Starts an install's essential packs while its extension is still launched and asked about
    /// them (`shouldDownload(_:)`), so their transfers overlap its start.
    ///
    /// Until the answer, each download only transfers: its events are held back and its archive,
    /// if it arrives first, is kept uninstalled. ``answered(app:accepted:)`` then lets the accepted
    /// ones go on and withdraws the others.
    /// - Parameters:
    ///   - entries: The essential packs the extension is asked about.
    ///   - app: The app.
    ///   - archiveURL: Each entry's archive URL; an entry without one is skipped.
    public mutating func startAhead(_ entries: [AssetPackDownloadManifest.Entry], app: String,
                                    archiveURL: (AssetPackDownloadManifest.Entry) -> URL?) -> [AssetPackAction] {
        var actions: [AssetPackAction] = []
        for entry in entries {
            let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)
            guard activities[key] == nil, let url = archiveURL(entry) else { continue }
            activities[key] = Activity(entry: entry, phase: .queued, isEssential: true, awaitsAnswer: true)
            actions.append(.startDownload(app: app, entry: entry, archiveURL: url, isEssential: true))
        }
        return actions
    }

    /// The downloads of an app that await its extension's answer, ordered by pack.
    public func awaitingAnswer(of app: String) -> [AssetPackDownloadManifest.Entry] {
        activities.filter { $0.key.bundleIdentifier == app && $0.value.awaitsAnswer }.map(\.value.entry).sorted { $0.id < $1.id }
    }

    /// Whether a queue download is a pack's that awaits its extension's answer.
    public func isAwaitingAnswer(app: String, identifier: String) -> Bool {
        match(app, identifier)?.1.awaitsAnswer == true
    }

    /// The packs of an app that go on after the answer: those it accepted, and those the app asked
    /// for meanwhile.
    public func goesOn(app: String, accepted: Set<String>?) -> Set<String> {
        Set(activities.filter { $0.key.bundleIdentifier == app && $0.value.awaitsAnswer }
            .filter { accepted?.contains($0.key.packID) == true || $0.value.isRequested }.map(\.key.packID))
    }

    /// The extension answered `shouldDownload(_:)`, or never will: each download started ahead of
    /// the answer goes on when its pack was accepted (its held-back events are reported, an archive
    /// that arrived is installed, a failure is reported), and is withdrawn otherwise, reporting nothing.
    /// - Parameters:
    ///   - app: The app.
    ///   - accepted: The packs the extension accepted; `nil` when no answer will come (the extension
    ///     is not a managed one, crashed or ran out of time), which withdraws every one.
    public mutating func answered(app: String, accepted: Set<String>?) -> [AssetPackAction] {
        let goingOn = goesOn(app: app, accepted: accepted)
        var actions: [AssetPackAction] = []
        for entry in awaitingAnswer(of: app) {
            let key = InstalledAssetPack.Key(bundleIdentifier: app, packID: entry.id)
            guard let activity = activities[key] else { continue }
            let identifier = Self.identifier(entry)
            guard goingOn.contains(entry.id) else {
                activities[key] = nil
                actions.append(.withdrawDownload(app: app, identifier: identifier, heldArchive: activity.heldArchive))
                continue
            }
            activities[key]?.awaitsAnswer = false
            if case let .downloading(completed, total) = activity.phase {
                actions.append(.emit(app: app, event: .began(packID: entry.id, version: entry.version)))
                if completed > 0 {
                    actions.append(.emit(app: app, event: .downloading(packID: entry.id, version: entry.version,
                                                                       completedBytes: completed, totalBytes: total)))
                }
            }
            if let failure = activity.heldFailure {
                actions += failed(app: app, identifier: identifier.description, failure: failure)
            } else if let archive = activity.heldArchive {
                actions += downloadFinished(app: app, identifier: identifier.description, file: archive)
            }
        }
        return actions
    }
}
