/*
Abstract:
The app delegate: when the system launches the game for its background session's events, makes the session again and keeps the completion handler.
*/

import BackgroundURLSessions

/// What `UIApplicationDelegate` does in Apple's article "Downloading files in the background".
final class AppDelegate: BackgroundURLSessionApplicationDelegate, @unchecked Sendable {
    // @unchecked: the system calls it on the main queue only.
    static let shared = AppDelegate()

    /// The system finished the session's transfers while the game was not running, and launched
    /// it in the background to hear about them.
    func application(handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping @Sendable () -> Void) {
        guard identifier == GameDownloader.sessionIdentifier else { return completionHandler() }
        // Keep the handler: the session's delegate calls it from urlSessionDidFinishEvents, after
        // the events. Making the session again is what delivers them.
        GameDownloader.shared.backgroundCompletionHandler = completionHandler
        _ = GameDownloader.shared.session
    }

    /// Waits while the system delivers the session's events or runs the processing task; the
    /// system ends the game when neither has anything left.
    static func serveBackgroundLaunch() async -> Never {
        while true {
            try? await Task.sleep(for: .seconds(3600))
        }
    }
}
