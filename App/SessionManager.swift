/*
Abstract:
Manages and downloads sessions: loads and refreshes the manifest, and keeps every session's status.
*/

import BackgroundAssets
import Foundation
import OSLog
import SessionKit
import Synchronization

/// The app's model of the sessions: the manifest, and how each session's download is doing.
///
/// Apple's sample creates one as a SwiftUI `@StateObject` of the app; this app has no SwiftUI, so the
/// one instance is `shared`. It is the download manager's delegate: callbacks arrive for the app's
/// foreground downloads and also for the background downloads the extension scheduled.
/// Callbacks arrive on a background thread, so the state is kept behind a `Mutex`.
final class SessionManager: NSObject, Sendable {
    /// The session manager of the app.
    static let shared = SessionManager()

    /// How one session's download is doing, while the app watches it.
    struct Transfer: Sendable {
        var phase = SessionStatus.Phase.remote
        var bytesWritten: Int64 = 0
        var rate = TransferRate()
    }

    struct State: Sendable {
        /// The manifest in use, or `nil` before one was loaded.
        var manifest: Manifest?
        /// The manifest's own URL, against which its relative session URLs resolve; `nil` before
        /// the app is installed, when no Info.plist names one.
        var manifestURL = SharedSettings.manifestURL()
        /// Sessions the app has seen downloads of, by identifier; the others are remote or on disk.
        var transfers: [Session.ID: Transfer] = [:]
        /// How many sessions, from the start of the manifest, were settled when the app last looked.
        var settledPrefix = 0
        /// Counts the manifests loaded, so a count of settled sessions is kept only for its own manifest.
        var manifestGeneration = 0
    }

    /// The app group the app shares with its extension.
    let settings = SharedSettings.shared
    /// Everything that happens to the manifest and the sessions, for the display.
    let events: AsyncStream<SessionEvent>
    let state = Mutex(State())
    private let eventContinuation: AsyncStream<SessionEvent>.Continuation

    private override init() {
        (events, eventContinuation) = AsyncStream.makeStream(
            of: SessionEvent.self, bufferingPolicy: .bufferingNewest(4096))
        super.init()
        // The manifest first: a finished download can be delivered as soon as the delegate is set,
        // and it is matched to its session through the manifest.
        loadLocalManifest()
        // Callbacks start flowing once a delegate is set; the manager holds it weakly, and the
        // singleton lives as long as the app.
        BADownloadManager.shared.delegate = self
    }

    // MARK: - Sessions

    /// Every session of the manifest with its status, in the manifest's order.
    ///
    /// Whether a video is on the device is read from the disk each time, so a video the system
    /// removed under storage pressure shows as remote at once.
    var statuses: [SessionStatus] {
        let now = ContinuousClock.now
        let (manifest, transfers) = state.withLock { ($0.manifest, $0.transfers) }
        return (manifest?.localSessions(settings: settings) ?? []).map { local in
            let transfer = transfers[local.id] ?? Transfer()
            let isOnDisk = local.state == .downloaded
            return SessionStatus(
                session: local.session, phase: isOnDisk ? .downloaded : transfer.phase,
                bytesWritten: isOnDisk ? Int64(local.session.fileSize) : transfer.bytesWritten,
                bytesPerSecond: isOnDisk ? nil : transfer.rate.bytesPerSecond(at: now))
        }
    }

    /// Whether every session may be settled: on disk, or its download failed.
    ///
    /// It answers as ``statuses`` would when that is no, for much less: sessions found settled are
    /// not looked at again, so each is read from disk about once per run. The app asks after every
    /// event, and reading a thousand sessions each time would cost more than the downloads.
    var mayBeSettled: Bool {
        let (manifest, start, generation) = state.withLock { ($0.manifest, $0.settledPrefix, $0.manifestGeneration) }
        guard let manifest else { return false }
        var index = start
        while index < manifest.sessions.count {
            let session = manifest.sessions[index]
            let failedOrDone = state.withLock { $0.transfers[session.id]?.phase.isSettled ?? false }
            guard failedOrDone || LocalSession(session: session, settings: settings).state == .downloaded else { break }
            index += 1
        }
        state.withLock { state in
            if state.manifestGeneration == generation { state.settledPrefix = max(state.settledPrefix, index) }
        }
        return index == manifest.sessions.count
    }

    /// Whether a manifest is loaded, from the server or from the app group.
    var hasManifest: Bool {
        state.withLock { $0.manifest != nil }
    }

    // MARK: - Manifest

    /// Downloads the manifest, saves it as the local copy, and loads it.
    ///
    /// On failure the local copy stays in use: the extension may have saved a newer one during the
    /// install, and the next launch tries again.
    /// - Parameter manifestURL: The manifest's URL; `nil` when neither the Info.plist nor the
    ///   command line names one, which is reported as an unavailable manifest.
    /// - Returns: Whether the manifest was fetched and saved.
    /// - Note: On Apple platforms the URL is the app's `BAManifestURL`, read from its Info.plist with
    ///   `Bundle.main`; the app here is a plain executable, so it comes from the command line or
    ///   the environment (see ``SharedSettings/manifestURL(environment:)``).
    @discardableResult
    func refreshManifest(from manifestURL: URL?) async -> Bool {
        guard let manifestURL else {
            let reason = "No BAManifestURL to refresh the manifest from: install the app with "
                + "backgroundassets-debug install, or pass --manifest-url."
            Logger.app.error("\(reason)")
            eventContinuation.yield(.manifestUnavailable(reason))
            return false
        }
        state.withLock { $0.manifestURL = manifestURL }
        do {
            let request = URLRequest(
                url: manifestURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 15)
            let data: Data
            let status: Int?
            #if !canImport(Darwin)
            if manifestURL.scheme == "https" {
                // Linux only: URLSession here cannot trust the CAs installed on the device (see
                // Docs/AppleAPIMapping.md); on Apple platforms the URLSession call below does.
                (data, status) = try await DeviceTrustedFetch.data(from: manifestURL)
            } else {
                let (body, response) = try await URLSession.shared.data(for: request)
                (data, status) = (body, (response as? HTTPURLResponse)?.statusCode)
            }
            #else
            let (body, response) = try await URLSession.shared.data(for: request)
            (data, status) = (body, (response as? HTTPURLResponse)?.statusCode)
            #endif
            guard status == 200 else {
                let answer = status.map { "the server answered \($0)" } ?? "the answer was not HTTP"
                throw AppError.manifestUnavailable(url: manifestURL.absoluteString, reason: answer)
            }
            // Validated before it replaces anything, so a bad manifest never overwrites a good one.
            let manifest = try Manifest.decode(data, source: manifestURL.absoluteString, baseURL: manifestURL)
            // Usually the extension saved this very manifest during the install, and the app loaded
            // it at launch: saving it again would rewrite and sync the whole file for nothing.
            if manifest != state.withLock({ $0.manifest }) {
                // The save is an atomic replace: the extension reads the old manifest or the new one,
                // never a mix, so it needs no exclusive control.
                try settings.saveLocalManifest(manifest)
            }
            use(manifest, isRefreshed: true)
        } catch {
            let reason = switch error {
            case let error as AppError: error.description
            // A manifest that doesn't validate, or a local copy that can't be written, explains itself.
            case let error as SessionKitError: error.description
            default:
                AppError.manifestUnavailable(url: manifestURL.absoluteString, reason: error.localizedDescription)
                    .description
            }
            Logger.app.error("\(reason)")
            eventContinuation.yield(.manifestUnavailable(reason))
            return false
        }
        return true
    }

    /// The URL the manifest was last refreshed from, or the Info.plist's `BAManifestURL`.
    var manifestURL: URL? {
        state.withLock { $0.manifestURL }
    }

    /// Loads the local copy of the manifest, saved by the app or by the extension.
    private func loadLocalManifest() {
        let url = settings.localManifestURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            Logger.app.info("No manifest has been downloaded yet.")
            return
        }
        let manifest: Manifest
        do {
            manifest = try Manifest.load(from: url, baseURL: state.withLock { $0.manifestURL })
        } catch {
            Logger.app.error("Failed to load the local manifest: \(error.localizedDescription)")
            return
        }
        use(manifest, isRefreshed: false)
    }

    /// Makes `manifest` the one in use, and reports it.
    private func use(_ manifest: Manifest, isRefreshed: Bool) {
        state.withLock { state in
            state.manifest = manifest
            state.settledPrefix = 0
            state.manifestGeneration += 1
        }
        let remote = manifest.remoteSessions(settings: settings).count
        let event = SessionEvent.manifestLoaded(
            version: manifest.version, sessions: manifest.sessions.count, remote: remote, isRefreshed: isRefreshed)
        eventContinuation.yield(event)
    }

    /// The session a download fetches, if the manifest in use lists it.
    func session(for download: BADownload) -> Session? {
        state.withLock { $0.manifest?.session(forDownloadIdentifier: download.identifier) }
    }

    // MARK: - Status updates

    /// Changes a session's transfer, then reports an event.
    func update(_ id: Session.ID, reporting event: SessionEvent, _ change: (inout Transfer) -> Void) {
        state.withLock { change(&$0.transfers[id, default: Transfer()]) }
        eventContinuation.yield(event)
    }
}
