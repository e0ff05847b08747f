/*
Abstract:
Refreshes the manifest in the background with BGTaskScheduler, and schedules the downloads of new sessions.
*/

import BackgroundTasks
import Foundation
import OSLog
import SessionKit

/// Keeps the sessions current while the app isn't running, as "Advances in App Background Execution"
/// (WWDC19) shows: register the handler at launch, submit a request each time the app runs, and
/// let each refresh submit the next one.
enum BackgroundRefresh {
    /// The identifier `App/Info.plist` lists in `BGTaskSchedulerPermittedIdentifiers`, read from the
    /// installed Info.plist so that renaming the app there renames the task too; `nil` when the app
    /// runs without an installed Info.plist, before `backgroundassets-debug install`.
    static let taskIdentifier =
        (Bundle.main.object(forInfoDictionaryKey: "BGTaskSchedulerPermittedIdentifiers") as? [String])?.first

    /// Registers the refresh handler; call it before the app finishes launching.
    static func register() {
        // An app that is not installed has no task to register; its launch gate says so next.
        guard let taskIdentifier else { return }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: nil) { task in
            handleAppRefresh(task: task as! BGAppRefreshTask)
        }
    }

    /// Asks the system to refresh the sessions in the background, no earlier than 15 minutes from now.
    static func scheduleAppRefresh() {
        guard let taskIdentifier else { return }
        let request = BGAppRefreshTaskRequest(identifier: taskIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            Logger.app.error("Could not schedule the app refresh: \(error.localizedDescription)")
        }
    }

    /// Fetches the manifest and schedules background downloads of the sessions not on the device.
    private static func handleAppRefresh(task: BGAppRefreshTask) {
        // Schedule the next refresh first, so that one is always pending.
        scheduleAppRefresh()

        let manager = SessionManager.shared
        let refresh = Task {
            let refreshed = await manager.refreshManifest(from: manager.manifestURL)
            if refreshed, !Task.isCancelled { await manager.scheduleBackgroundDownloads() }
            task.setTaskCompleted(success: refreshed && !Task.isCancelled)
        }

        // The system is about to end the task: stop the fetch, and say the refresh didn't finish.
        task.expirationHandler = {
            refresh.cancel()
            task.setTaskCompleted(success: false)
        }
    }

    /// Waits while the system runs the app's tasks; it ends the app when none is left.
    ///
    /// - Note: On Apple platforms a background launch has no UI to skip, and the system suspends the
    ///   app when its tasks are done. Here the app was launched for its tasks when
    ///   ``BGTaskScheduler/isBackgroundLaunch`` is `true`, so it shows nothing and waits.
    static func serveTasks() async -> Never {
        Logger.app.info("Launched in the background for Background Tasks.")
        while true {
            try? await Task.sleep(for: .seconds(3600))
        }
    }
}
