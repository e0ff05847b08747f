/*
Abstract:
Whether the system launched the app in the background for its tasks: the stand-in's answer to applicationState.
*/

import Foundation

extension BGTaskScheduler {
    /// Whether the system launched this process in the background to run its tasks.
    ///
    /// - Note: Not in Apple's framework: an iOS app sees `UIApplication.shared.applicationState`
    ///   instead. Here the service launches the app's executable with `BG_TASK_BACKGROUND_LAUNCH=1`,
    ///   so the app can skip its terminal UI and wait for its tasks.
    public static var isBackgroundLaunch: Bool {
        ProcessInfo.processInfo.environment["BG_TASK_BACKGROUND_LAUNCH"] == "1"
    }
}
