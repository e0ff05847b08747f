/*
Abstract:
Waits, at launch, while the system still installs the app, showing the install's progress.
*/

import BackgroundAssets
import Foundation
import OSLog

extension BALaunchGate {
    /// Waits until the app is launchable, showing the install's progress on the display.
    ///
    /// On Apple platforms a person cannot open an app while its essential downloads run: the home
    /// screen shows the install's progress instead. Here the app waits for the same moment. When
    /// the system can't be asked (the service is unreachable), the app logs why and carries on
    /// without waiting.
    /// - Parameter display: Where the progress is shown.
    /// - Returns: `false` when the app is not installed, as a home screen would have no icon to tap.
    static func waitUntilLaunchable(showingProgressOn display: any SessionDisplay) async -> Bool {
        do {
            try await waitUntilLaunchable { display.showInstallProgress($0) }
            display.installEnded("\(Bundle.appName) is installed.")
        } catch is CancellationError {
            display.installEnded("Stopped waiting for the install.")
        } catch let error as BAError where error.code == .callerConnectionNotAccepted {
            Logger.app.error("The app is not installed: \(error.localizedDescription)")
            return false
        } catch {
            Logger.app.error(
                "Could not wait for the install to finish, so the app starts now: \(error.localizedDescription)")
            display.installEnded("Not waiting for the install: \(error.localizedDescription)")
        }
        return true
    }
}
