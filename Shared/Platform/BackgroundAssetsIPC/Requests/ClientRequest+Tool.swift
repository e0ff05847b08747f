/*
Abstract:
The requests only the debug tool may make: what a person, the App Store or the system does to an app or the device.
*/

extension ClientRequest {
    /// The requests only `backgroundassets-debug` may make; the service refuses every one of them
    /// from any other role, in one place.
    public enum Tool: Codable, Sendable, Equatable {
        /// Installs or updates an app from its Info.plists, as the App Store would.
        case install(InstallRequest)
        /// Removes an installed app, its downloads and its container; `nil` means the only app installed.
        case uninstall(bundleIdentifier: String?)
        /// Sends a content request to an app's extension now and resets its runtime budget.
        case simulate(ContentRequestKind, bundleIdentifier: String?)
        /// Changes the device settings and answers with all of them.
        case updateSettings(SettingsChange)
        /// Launches or expires an app's pending or running task now.
        case simulateTask(TaskSimulation, identifier: String, bundleIdentifier: String?)
        /// Puts the device's clock back to real time, moving every recorded device date back by as much.
        case resetDeviceClock
        /// A person force-quits an app: its processes end and its background transfers are cancelled.
        case forceQuit(bundleIdentifier: String?)
        /// Removes asset packs as storage pressure would, on-demand packs first and never essential ones,
        /// until `bytes` are free (all it may, when `nil`); `nil` app means every app.
        case purgeAssetPacks(bundleIdentifier: String?, bytes: Int64?)
        /// A person answers an app's delivered notification with an action.
        case respondToNotification(bundleIdentifier: String?, identifier: String, actionIdentifier: String, userText: String?)
    }
}
