/*
Abstract:
The hold-control command: takes the download manager's exclusive control and keeps it for a while,
as the app does while it changes the manifest or a video, so the extension can be seen waiting.
*/

import BackgroundAssets
import Foundation

/// Holds exclusive control of the app's downloads for a given time.
struct HoldControlCommand {
    /// How long to keep control once it is granted.
    let duration: Duration

    private var seconds: TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Waits for control, keeps it, and releases it.
    /// - Returns: The exit status: 0 once control was held and released, 1 when it was not granted.
    func run() async -> Int32 {
        Terminal.write("Waiting for exclusive control.\n")
        do {
            try await BADownloadManager.shared.withExclusiveControl {
                Terminal.write("Holding exclusive control for \(seconds.formatted()) s.\n")
                // The extension asks for control from another process; blocking this thread is
                // what holding it looks like to it, as a long write of the app's would.
                Thread.sleep(forTimeInterval: seconds)
            }
            // The release travels on the same connection as the next request, so once this
            // answer arrives the service has handed control on.
            _ = try BADownloadManager.shared.fetchCurrentDownloads()
            Terminal.write("Released exclusive control.\n")
            return 0
        } catch {
            Terminal.write("Could not take exclusive control: \(error.localizedDescription)\n", to: STDERR_FILENO)
            return 1
        }
    }
}
