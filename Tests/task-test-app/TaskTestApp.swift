/*
Abstract:
An app for the Background Tasks tests: registers two handlers, submits what it is told, and records every launch.
*/

import BackgroundAssets
import BackgroundAssetsIPC
import BackgroundTasks
import Foundation

/// Registers `REFRESH` and `CLEANUP` as every launch must, submits the requests its options name,
/// then stays alive unless given `--exit`; ``TaskTestOptions`` says what each option does.
@main
struct TaskTestApp {
    static let appGroup = "group.com.example.lifecycle-test"
    static let refresh = "com.example.lifecycle-test.refresh"
    static let cleanup = "com.example.lifecycle-test.cleanup"
    static let export = "com.example.lifecycle-test.export"

    static func main() throws {
        let options = TaskTestOptions.parseOrExit()
        let container = DevicePaths.current().container(forAppGroup: appGroup)!
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        let log = TaskTestLog(file: container.appending(path: "task-test-app.log"))
        let behaviour = (try? String(contentsOf: container.appending(path: "task-behaviour"), encoding: .utf8)) ?? ""
        let hang = behaviour.contains("hang")
        let work = Double(behaviour.split(separator: " ").first { $0.hasPrefix("work=") }?.dropFirst(5) ?? "") ?? 0

        let resubmits = behaviour.contains("resubmit")
        if resubmits {
            log.append(DatabaseCleaning.register(log: log) ? "registered" : "notRegistered", cleanup)
        }
        for identifier in resubmits ? [refresh] : [refresh, cleanup] {
            let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                log.append("launch", task.identifier)
                task.expirationHandler = {
                    log.append("expire", task.identifier)
                    if !hang { task.setTaskCompleted(success: false) }
                }
                guard !hang else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + work) {
                    log.append("complete", task.identifier)
                    task.setTaskCompleted(success: true)
                }
            }
            log.append(registered ? "registered" : "notRegistered", identifier)
        }
        // The rest of the app's start-up on the main thread, after it registered its handlers: no
        // task may run inside it.
        if let setup = Double(behaviour.split(separator: " ").first { $0.hasPrefix("setup=") }?.dropFirst(6) ?? "") {
            Thread.sleep(forTimeInterval: setup)
            log.append("ready", "setup")
        }

        for specification in options.submit { submit(specification, log: log) }
        for identifier in options.submitOther { submit(identifier + ":now:other", log: log) }
        for specification in options.continued { submitContinuedProcessing(specification, log: log) }
        if options.cancelAll {
            BGTaskScheduler.shared.cancelAllTaskRequests()
            // Requests leave in order: once a later one is answered, the cancel has been sent.
            let answered = DispatchSemaphore(value: 0)
            BGTaskScheduler.shared.getPendingTaskRequests { _ in answered.signal() }
            answered.wait()
            log.append("cancelledAll", "all")
        }
        if options.exit { exit(0) }
        dispatchMain()
    }

    static func submit(_ specification: String, log: TaskTestLog) {
        let parts = specification.split(separator: ":").map(String.init)
        let request: BGTaskRequest
        if parts.contains("other") {
            request = BGAppRefreshTaskRequest(identifier: parts[0])
        } else if parts[0] == "cleanup" {
            let processing = BGProcessingTaskRequest(identifier: cleanup)
            processing.requiresExternalPower = parts.contains("power")
            processing.requiresNetworkConnectivity = parts.contains("network")
            request = processing
        } else {
            request = BGAppRefreshTaskRequest(identifier: refresh)
        }
        if parts.count > 1, let seconds = Double(parts[1]) { request.earliestBeginDate = Date(timeIntervalSinceNow: seconds) }
        do {
            try BGTaskScheduler.shared.submit(request)
            log.append("submitted", request.identifier)
        } catch let error as BGTaskScheduler.Error {
            log.append("refused\(error.code.rawValue)", request.identifier)
            FileHandle.standardError.write(Data("task-test-app: \(error.message)\n".utf8))
        } catch {
            log.append("refused", request.identifier)
        }
    }
}

extension TaskTestApp {
    /// Registers a handler for a continued-processing identifier and submits its request, as an app
    /// does when a person taps a button.
    static func submitContinuedProcessing(_ specification: String, log: TaskTestLog) {
        let parts = specification.split(separator: ":").map(String.init)
        let identifier = "\(export).\(parts.first ?? "task")"
        let total = Int64(parts.count > 1 ? parts[1] : "") ?? 10
        let stop = Int64(parts.count > 2 ? parts[2] : "") ?? total
        let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            guard let task = task as? BGContinuedProcessingTask else { return }
            log.append("launch", task.identifier)
            let state = ContinuedWork(task: task, total: total, stop: stop, log: log)
            task.expirationHandler = { state.expire() }
            state.advance()
        }
        log.append(registered ? "registered" : "notRegistered", identifier)
        let request = BGContinuedProcessingTaskRequest(identifier: identifier, title: "Exporting \(parts.first ?? "")", subtitle: "0 of \(total)")
        if parts.contains("fail") { request.strategy = .fail }
        do {
            try BGTaskScheduler.shared.submit(request)
            log.append("submitted", identifier)
        } catch let error as BGTaskScheduler.Error {
            log.append("refused\(error.code.rawValue)", identifier)
            FileHandle.standardError.write(Data("task-test-app: \(error.message)\n".utf8))
        } catch {
            log.append("refused", identifier)
        }
    }
}

/// A continued-processing task's work: a unit every 100 ms until it stops, completes or expires.
final class ContinuedWork: Sendable {
    let task: BGContinuedProcessingTask
    let total: Int64
    let stop: Int64
    let log: TaskTestLog

    init(task: BGContinuedProcessingTask, total: Int64, stop: Int64, log: TaskTestLog) {
        self.task = task
        self.total = total
        self.stop = stop
        self.log = log
        task.progress.totalUnitCount = total
    }

    func advance() {
        let done = task.progress.completedUnitCount
        if done >= total {
            log.append("complete", task.identifier)
            task.setTaskCompleted(success: true)
            return
        }
        guard done < stop else {
            log.append("progress\(done)", task.identifier)
            return
        }
        task.progress.completedUnitCount = done + 1
        task.updateTitle(task.title, subtitle: "\(done + 1) of \(total)")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { self.advance() }
    }

    func expire() {
        log.append("expire", task.identifier)
        task.setTaskCompleted(success: false)
    }
}

/// Appends one line per event, from any thread.
struct TaskTestLog: Sendable {
    let file: URL

    func append(_ event: String, _ identifier: String) {
        let mode = ProcessInfo.processInfo.environment["BG_TASK_BACKGROUND_LAUNCH"] == "1" ? "background" : "foreground"
        let line = "\(event) \(identifier) \(getpid()) \(mode)\n"
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        _ = line.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
    }
}
