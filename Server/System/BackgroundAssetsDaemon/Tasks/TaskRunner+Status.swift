/*
Abstract:
What the task runner tells `status` and `tasks`, and the service's idle exit: each request and task in a sentence, and whether one is due soon.
*/

import BackgroundAssetsIPC
import Foundation

extension TaskRunner {
    /// A pending request with whether it may run now, as the service read them.
    struct Pending: Sendable, Equatable {
        var task: PendingTask
        var eligibility: TaskEligibility
    }

    /// Whether a task runs or a continued-processing request waits for room: the service stays.
    var hasWork: Bool { !host.runningTasks.isEmpty || !host.continuedQueue.all.isEmpty }

    /// Whether a pending request may run now, or its hold ends within `window` seconds of real time.
    func hasTaskDue(in pending: [Pending], within window: TimeInterval, now: Date, clock: DeviceClock) -> Bool {
        pending.contains { entry in
            switch entry.eligibility {
            case .ready: true
            case let .held(hold): hold.until.map { clock.realTime(at: $0).timeIntervalSince(now) < window } ?? false
            }
        }
    }

    /// Each pending request, each queued continued-processing request and each running task, for `status` and `tasks`.
    func statuses(of pending: [Pending], now: Date) -> [TaskStatus] {
        var statuses: [TaskStatus] = pending.map { entry in
            let task = entry.task
            var summary = entry.eligibility.summary
            if entry.eligibility == .ready, host.handler(app: task.bundleIdentifier, identifier: task.request.identifier) == nil {
                summary = host.backgroundLaunch(of: task.bundleIdentifier) == nil
                    ? "may run now; the app will be launched in the background"
                    : "may run now; waiting for the app to register its launch handler"
            }
            var status = TaskStatus(bundleIdentifier: task.bundleIdentifier, request: task.request, state: .pending, summary: summary)
            if case let .held(hold) = entry.eligibility {
                status.waitingFor = hold.rule
                status.notBefore = hold.until
            }
            return status
        }
        let running = host.runningCount(of: .continuedProcessing)
        for entry in host.continuedQueue.all {
            let summary = ContinuedProcessingPolicy.hasRoom(running: running)
                ? "may start now" : "queued: \(running) continued-processing tasks run, the most at once"
            statuses.append(TaskStatus(bundleIdentifier: entry.bundleIdentifier, request: entry.request, state: .pending, summary: summary))
        }
        for task in host.runningTasks {
            statuses.append(TaskStatus(
                bundleIdentifier: task.bundleIdentifier, request: task.request, state: .running,
                summary: Self.summary(of: task, now: now), progress: task.progress))
        }
        return statuses
    }

    /// How a running task is doing, in one sentence for `tasks`.
    private static func summary(of task: TaskHost.RunningTask, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(task.started))
        guard task.request.kind == .continuedProcessing else {
            return task.hasExpired
                ? "expiring: its expiration handler was asked to run; ends \(task.limit.formatted()) s after it started"
                : "running, \(seconds) s of its \(task.limit.formatted()) s"
        }
        let shown = task.progress.map { "\($0.summary), \"\($0.title)\" \"\($0.subtitle)\"" } ?? "no progress reported yet"
        return task.hasExpired
            ? "expiring at \(shown): its expiration handler was asked to run; ends \(ContinuedProcessingPolicy.expirationGrace.formatted()) s later"
            : "running \(seconds) s, \(shown)"
    }
}
