/*
Abstract:
A processing task in the pattern of Apple's documentation: its launch handler schedules the next request, then does its work.
*/

// Written from Apple's "Using background tasks to update your app" and its ColorFeed sample: register
// at launch, schedule the next request first thing in the launch handler, do the work on an
// operation queue, cancel it on expiration. Only the identifier and the log lines are the test's.
import BackgroundTasks
import Foundation

enum DatabaseCleaning {
    static let identifier = TaskTestApp.cleanup

    /// Registers the launch handler; the system refuses registrations after launch finishes.
    static func register(log: TaskTestLog) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            handleDatabaseCleaning(task: task as! BGProcessingTask, log: log)
        }
    }

    static func scheduleDatabaseCleaning() {
        let request = BGProcessingTaskRequest(identifier: identifier)
        request.requiresNetworkConnectivity = false
        request.requiresExternalPower = false
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule database cleaning: \(error)")
        }
    }

    static func handleDatabaseCleaning(task: BGProcessingTask, log: TaskTestLog) {
        log.append("launch", task.identifier)
        // Schedule the next cleaning first, so one is always pending.
        scheduleDatabaseCleaning()

        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let cleaning = BlockOperation {}
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        cleaning.completionBlock = {
            log.append("complete", task.identifier)
            task.setTaskCompleted(success: !cleaning.isCancelled)
        }
        queue.addOperation(cleaning)
    }
}
