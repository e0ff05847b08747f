/*
Abstract:
A ColorFeed-style app delegate: registers, schedules and runs a refresh task and a processing task.
*/

// Written from Apple's documentation of Background Tasks ("Using background tasks to update your
// app" and its ColorFeed sample); compiled unchanged in Swift 6 and Swift 5 language modes, with only
// `import BackgroundTasks`: Foundation (Date, TimeInterval, OperationQueue) comes with it, as on Apple
// platforms. Edits from Apple's platforms: the delegate does not adopt `UIApplicationDelegate` (UIKit
// does not exist on Linux), so its launch method has no `UIApplication` parameter; the app calls it
// as it starts.
import BackgroundTasks

final class AppDelegate: NSObject {
    static let refreshIdentifier = "com.example.apple-style.refresh"
    static let cleaningIdentifier = "com.example.apple-style.db_cleaning"

    /// Registers the launch handlers; the system refuses registrations after launch finishes.
    func applicationDidFinishLaunching() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { task in
            self.handleAppRefresh(task: task as! BGAppRefreshTask)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.cleaningIdentifier, using: nil) { task in
            self.handleDatabaseCleaning(task: task as! BGProcessingTask)
        }
    }

    func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule app refresh: \(error)")
        }
    }

    func scheduleDatabaseCleaningIfNeeded(lastCleaned: Date) {
        let oneWeek = TimeInterval(7 * 24 * 60 * 60)
        guard lastCleaned < Date(timeIntervalSinceNow: -oneWeek) else { return }
        let request = BGProcessingTaskRequest(identifier: Self.cleaningIdentifier)
        request.requiresNetworkConnectivity = false
        request.requiresExternalPower = true
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch let error as BGTaskScheduler.Error where error.code == .notPermitted {
            print("Database cleaning is not permitted: \(error.localizedDescription)")
        } catch {
            print("Could not schedule database cleaning: \(error)")
        }
    }

    func handleAppRefresh(task: BGAppRefreshTask) {
        // Schedule the next refresh first, so one is always pending.
        scheduleAppRefresh()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let operation = BlockOperation { Thread.sleep(forTimeInterval: 0.01) }
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        operation.completionBlock = {
            task.setTaskCompleted(success: !operation.isCancelled)
        }
        queue.addOperation(operation)
    }

    func handleDatabaseCleaning(task: BGProcessingTask) {
        let queue = OperationQueue()
        let cleaning = BlockOperation {}
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        cleaning.completionBlock = {
            let success = !cleaning.isCancelled
            task.setTaskCompleted(success: success)
        }
        queue.addOperation(cleaning)
    }

    func pendingRequestIdentifiers() async -> [String] {
        await BGTaskScheduler.shared.pendingTaskRequests().map(\.identifier)
    }
}
