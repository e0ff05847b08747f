/*
Abstract:
Downloads the game data with a background URLSession: the system keeps transferring after the game exits, and hands the archive over in didFinishDownloadingTo.
*/

import BackgroundURLSessions
import Synchronization

/// The game's one background session and its delegate.
final class GameDownloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    // @unchecked: the completion handler is behind a lock; the session is made once.
    static let shared = GameDownloader()

    /// The session's identifier: the same in every process, so a relaunched game gets its tasks back.
    static let sessionIdentifier = "com.example.apple-samplecode.BackgroundGame.data"

    private let handler = Mutex<(@Sendable () -> Void)?>(nil)
    /// The notification being posted about an arrived archive, which the background launch waits for.
    private let notifying = Mutex<Task<Void, Never>?>(nil)

    /// The completion handler of `handleEventsForBackgroundURLSession`, called once the events are in.
    var backgroundCompletionHandler: (@Sendable () -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// The background session. Making it again, in any process of the game, reconnects to the
    /// transfers the system runs for it and delivers their events.
    lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.sessionIdentifier)
        // The player is waiting for the new levels: don't let the system defer the transfer.
        configuration.isDiscretionary = false
        // Launch the game in the background when the transfer ends, even if the player left.
        configuration.sessionSendsLaunchEvents = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    /// Starts downloading an archive unless the session already transfers one.
    /// - Returns: Whether a new download started.
    func download(_ update: GameVersion) async -> Bool {
        // Tasks outlive the process that made them: a download the player started before may still run.
        guard await session.allTasks.isEmpty else { return false }
        let task = session.downloadTask(with: update.archiveURL)
        // The system keeps the description with the task, so a relaunched game knows what arrived.
        task.taskDescription = String(update.version)
        task.countOfBytesClientExpectsToReceive = update.size
        task.resume()
        // Asking for the tasks again waits until the system has the resumed one, so the game may exit.
        _ = await session.allTasks
        return true
    }

    // MARK: - URLSessionDownloadDelegate

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        // The file is deleted when this method returns: move it into the game's container first.
        do {
            try GameData.current.keepDownloadedArchive(at: location)
        } catch {
            print("The downloaded game data could not be kept: \(error.localizedDescription). The next launch downloads it again.")
            return
        }
        let post = Task {
            await GameNotifications.post(identifier: "download-complete", title: "Download complete",
                                         body: "The new game data arrived; it is being verified and installed.")
        }
        notifying.withLock { $0 = post }
        // Verifying and unpacking tens of MiB is work for a processing task, not for this callback.
        DataInstaller.schedule()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let error else { return }
        print("The game data download failed: \(error.localizedDescription). The next launch tries again.")
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        // Every event that waited has been delivered: let the system end the background launch.
        let completionHandler = handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        let post = notifying.withLock { $0 }
        Task { @MainActor in
            await post?.value
            completionHandler?()
        }
    }
}
