/*
Abstract:
Verifies and unpacks the downloaded game data in a BGProcessingTask, so the player never waits for it.
*/

import BackgroundTasks
import Foundation

/// The processing task that installs downloaded game data. The classic version of this flow
/// could only verify and unpack while the game was open; a processing task runs it whenever the
/// system finds the time while the game is in the background.
enum DataInstaller {
    /// The identifier `Info.plist` lists in `BGTaskSchedulerPermittedIdentifiers`.
    static let taskIdentifier =
        (Bundle.main.object(forInfoDictionaryKey: "BGTaskSchedulerPermittedIdentifiers") as? [String])?.first

    /// Registers the handler; call it before the app finishes launching.
    static func register() {
        // A game that is not installed has no task to register; its launch says so next.
        guard let taskIdentifier else { return }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: nil) { task in
            install(task: task as! BGProcessingTask)
        }
    }

    /// Asks the system to install the downloaded data as soon as it can.
    static func schedule() {
        guard let taskIdentifier else { return }
        let request = BGProcessingTaskRequest(identifier: taskIdentifier)
        // The archive is already on the device, and unpacking tens of MiB needs no charger.
        request.requiresNetworkConnectivity = false
        request.requiresExternalPower = false
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule the install of the game data: \(error.localizedDescription)")
        }
    }

    /// Installs the downloaded data at once, for a player waiting in the game: the system runs the
    /// processing task only while the game is in the background, so the request is withdrawn.
    /// - Returns: Whether the data was installed.
    static func installWhileOpen() -> Bool {
        if let taskIdentifier { BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: taskIdentifier) }
        do {
            _ = try GameData.current.installDownloadedArchive()
            return true
        } catch {
            print("The game data could not be installed: \(error). The next launch downloads it again.")
            return false
        }
    }

    private static func install(task: BGProcessingTask) {
        let work = Task.detached {
            do {
                let version = try GameData.current.installDownloadedArchive()
                await GameNotifications.post(identifier: "ready-to-play", title: "Ready to play",
                                             body: "Game data version \(version) is installed.")
                task.setTaskCompleted(success: true)
            } catch {
                print("The game data could not be installed: \(error). The next launch downloads it again.")
                task.setTaskCompleted(success: false)
            }
        }
        // The system is about to end the task. The unpack switches over in one rename, so stopping
        // now leaves the old data whole; the next launch schedules the install again.
        task.expirationHandler = {
            work.cancel()
            task.setTaskCompleted(success: false)
        }
    }
}
