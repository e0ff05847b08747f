/*
Abstract:
Refreshes the manifest and brings every session onto the device, moving each finished download into place.
*/

// Written from Apple's documentation of Background Assets and the WWDC23 session; compiled unchanged
// in Swift 6 and Swift 5 language modes. Edits from Apple's platforms: Apple's sample is also an
// `ObservableObject` that publishes its sessions to SwiftUI (`import SwiftUI`, `import Combine`,
// `@Published`, `withAnimation`), none of which exists on Linux; this file keeps the state behind a
// lock instead and tells its caller when sessions change.
import BackgroundAssets
import OSLog

/// The app's model of its sessions and the Background Assets download manager's delegate.
final class SessionManager: NSObject, BADownloadManagerDelegate, @unchecked Sendable {
    // @unchecked: every mutable property is read and written under `lock`.

    static let shared = SessionManager()

    private let logger = Logger(subsystem: "com.example.apple-style", category: "SessionManager")
    private let lock = NSLock()
    private var manifest: Manifest?
    private var onChange: (() -> Void)?

    private override init() {
        super.init()
        manifest = try? Manifest.load(from: SharedSettings.localManifestURL)
        // Become the delegate at once: the system delivers downloads the extension scheduled, and
        // callbacks for a delegate that is not set are not kept for later.
        BADownloadManager.shared.delegate = self
    }

    /// The sessions of the current manifest.
    var sessions: [Session] {
        lock.withLock { manifest?.sessions ?? [] }
    }

    /// Calls `handler` whenever a session arrives on the device or the manifest changes.
    func observeChanges(_ handler: @escaping () -> Void) {
        lock.withLock { onChange = handler }
    }

    /// Downloads the manifest from the app's `BAManifestURL` and puts it in place of the old one.
    func refreshManifest() async throws {
        guard let string = Bundle.main.object(forInfoDictionaryKey: "BAManifestURL") as? String,
            let manifestURL = URL(string: string)
        else {
            logger.error("The Info.plist has no BAManifestURL.")
            return
        }
        let (downloadedURL, _) = try await URLSession.shared.download(from: manifestURL)
        let fresh = try Manifest.load(from: downloadedURL)
        try SharedSettings.replaceLocalManifest(with: downloadedURL)
        logger.info("Refreshed the manifest: version \(fresh.version), \(fresh.sessions.count) sessions.")
        let handler = lock.withLock { () -> (() -> Void)? in
            manifest = fresh
            return onChange
        }
        handler?()
    }

    /// Promotes the extension's downloads of missing sessions to the foreground, and starts the rest.
    func downloadMissingSessions() {
        // The extension may be scheduling downloads or moving files into place right now: take
        // exclusive control, and look for the missing sessions only once it is held.
        BADownloadManager.shared.withExclusiveControl { [logger] acquiredLock, error in
            guard acquiredLock else {
                logger.error("Could not acquire exclusive control: \(String(describing: error)).")
                return
            }
            let missing = self.sessions.filter { !SharedSettings.isDownloaded($0) }
            // The extension may have put the last ones in place before the lock was granted.
            if missing.isEmpty { self.lock.withLock { self.onChange }?() }
            do {
                let current = try BADownloadManager.shared.fetchCurrentDownloads()
                for session in missing {
                    if let inFlight = current.first(where: { $0.identifier == session.id }) {
                        try BADownloadManager.shared.startForegroundDownload(inFlight)
                        continue
                    }
                    let download = BAURLDownload(
                        identifier: session.id, request: URLRequest(url: session.url), fileSize: session.fileSize,
                        applicationGroupIdentifier: SharedSettings.appGroupIdentifier)
                    try BADownloadManager.shared.startForegroundDownload(download)
                }
            } catch {
                logger.error("Failed to start downloads: \(error.localizedDescription)")
            }
        }
    }

    // MARK: BADownloadManagerDelegate

    func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {
        guard let session = sessions.first(where: { $0.id == download.identifier }) else {
            logger.error("Unknown download finished: \(download.identifier).")
            return
        }
        // The file is deleted when this method returns: move it into place now.
        do {
            _ = try FileManager.default.replaceItemAt(SharedSettings.localURL(for: session), withItemAt: fileURL)
            logger.info("Downloaded session \(session.id, privacy: .public).")
        } catch {
            logger.error("Failed to move session \(session.id): \(error.localizedDescription)")
        }
        lock.withLock { onChange }?()
    }

    func download(_ download: BADownload, failedWithError error: Error) {
        logger.error("The download of \(download.identifier) failed: \(error.localizedDescription)")
    }

    func download(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        (.performDefaultHandling, nil)
    }
}
