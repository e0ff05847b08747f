/*
Abstract:
The extension's entry point: connect to the system, run the entry points it calls, exit when told.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation
import ServiceClient

extension BADownloaderExtension {
    /// Runs the extension: connects to the system service, runs each entry point it is asked
    /// for, and exits after `extensionWillTerminate()`.
    ///
    /// Exit statuses: 0 after `extensionWillTerminate()`, or when the connection to the system is
    /// lost (there is nothing left to do); 1 when the system refuses the extension's check-in; 64
    /// when a person started the extension rather than the system (it explains how to trigger it).
    /// - Note: On Apple platforms the extension point's host supplies `main()`; here the protocol does.
    public static func main() {
        guard ProcessIdentity.current().role == .extension else {
            StandardError.write(
                "This is a Background Assets downloader extension: the system starts it when its app is "
                    + "installed or updated, to check for new content, and when a download ends while the app is "
                    + "not running. To trigger it, install the app with `backgroundassets-debug install`, or send "
                    + "a content request with `backgroundassets-debug simulate --app-install`.")
            exit(64)  // EX_USAGE
        }
        let runner = ExtensionRunner(manager: .shared, handler: Self())
        // The runner blocks a thread of its own while the main thread serves the main queue, so an
        // entry point may still hop to the main actor (an app's code often does) without a deadlock.
        Thread.start(named: "ba-ext-runner") {
            exit(status(after: runner.run()))
        }
        dispatchMain()
    }

    /// Says why the extension ends, when that needs saying, and returns its exit status.
    private static func status(after outcome: ExtensionRunner.Outcome) -> Int32 {
        switch outcome {
        case .terminated:
            return 0
        case let .connectionLost(reason):
            StandardError.write("The connection to the Background Assets service ended (\(reason)); exiting.")
            return 0
        case let .checkInRefused(reason):
            // The service's reason already says what to do next.
            StandardError.write("The Background Assets service refused this extension's check-in: \(reason)")
            return 1
        }
    }
}
