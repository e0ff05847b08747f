/*
Abstract:
Starts a continued-processing task when a person asks for an export, and reports its progress.
*/

// Written from Apple's documentation of BGContinuedProcessingTask (iOS 26, "Performing long-running
// tasks on iOS and iPadOS"); compiled unchanged in Swift 6 and Swift 5 language modes, with only
// `import BackgroundTasks`. Edits from Apple's platforms: none.
import BackgroundTasks

final class ExportController {
    /// Registers a handler for a new export and submits its request, in response to a person's tap.
    func startExport(of items: [String]) throws {
        let identifier = "com.example.apple-style.export.\(UUID().uuidString)"
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            guard let task = task as? BGContinuedProcessingTask else { return }
            self.export(items, in: task)
        }
        let request = BGContinuedProcessingTaskRequest(
            identifier: identifier, title: "Exporting \(items.count) sessions", subtitle: "Starting…")
        request.strategy = .fail
        if BGTaskScheduler.supportedResources.contains(.gpu) {
            request.requiredResources = .gpu
        }
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch let error as BGTaskScheduler.Error where error.code == .immediateRunIneligible {
            print("The system is busy; try the export again later.")
        }
    }

    private func export(_ items: [String], in task: BGContinuedProcessingTask) {
        var cancelled = false
        task.expirationHandler = {
            // A person cancelled it, or it stopped making progress.
            cancelled = true
        }
        task.progress.totalUnitCount = Int64(items.count)
        for (index, item) in items.enumerated() where !cancelled {
            task.updateTitle(task.title, subtitle: "\(item) (\(index + 1) of \(items.count))")
            task.progress.completedUnitCount = Int64(index + 1)
        }
        task.setTaskCompleted(success: !cancelled)
    }
}
