/*
Abstract:
Waits, at launch, while the system still installs the app, showing the install's progress.
*/

import BackgroundAssets
import OSLog

extension BALaunchGate {
    /// Waits until the app is launchable, showing the install's progress on the display.
    ///
    /// On Apple platforms a person cannot open an app while its essential downloads run: the home
    /// screen shows the install's progress instead. Here the app waits for the same moment. When
    /// the system can't be asked (the service is unreachable, or the app was never installed with
    /// `backgroundassets-debug install`), the app logs why and carries on without waiting.
    /// - Parameter display: Where the progress is shown.
    static func waitUntilLaunchable(showingProgressOn display: any SessionDisplay) async {
        do {
            try await waitUntilLaunchable { display.showInstallProgress($0) }
            display.installEnded("WWDC Sessions is installed.")
        } catch is CancellationError {
            display.installEnded("Stopped waiting for the install.")
        } catch {
            Logger.app.error(
                "Could not wait for the install to finish, so the app starts now: \(error.localizedDescription)")
            display.installEnded("Not waiting for the install: \(error.localizedDescription)")
        }
    }
}
