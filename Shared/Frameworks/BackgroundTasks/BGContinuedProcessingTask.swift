/*
Abstract:
A task a person started in the app: it reports its progress and title to the system while it runs.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation
import Synchronization

/// A task that started in the foreground and may go on in the background, as Apple's
/// `BGContinuedProcessingTask` (iOS 26) does; the launch handler of a
/// ``BGContinuedProcessingTaskRequest`` receives it.
///
/// Report progress through ``progress`` (set `totalUnitCount`, then advance `completedUnitCount`)
/// and call ``BGTask/setTaskCompleted(success:)`` when done. The system may expire a task that
/// reports no progress for a while, or that a person cancels; set ``BGTask/expirationHandler`` to
/// stop the work and complete the task.
/// - Note: Apple's system observes the progress object. swift-corelibs-foundation has no key-value
///   observing, so the task reads ``progress`` four times a second and reports what changed to the
///   service, which shows it in `backgroundassets-debug tasks`.
public final class BGContinuedProcessingTask: BGTask, ProgressReporting, @unchecked Sendable {
    // @unchecked: the mutable state is behind `details`' lock; Progress is thread-safe.

    private struct Details {
        var title: String
        var subtitle: String
        var lastReported: TaskProgress?
        var isReporting = true
    }

    /// The task's progress; the system expires tasks that show none for a while.
    public let progress = Progress(totalUnitCount: 0)
    private let details: Mutex<Details>
    private let report: @Sendable (TaskProgress) -> Void
    private let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))

    init(
        identifier: String, title: String, subtitle: String, report: @escaping @Sendable (TaskProgress) -> Void,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        details = Mutex(Details(title: title, subtitle: subtitle))
        self.report = report
        super.init(identifier: identifier, completion: completion)
        startReporting()
    }

    deinit {
        timer.cancel()
    }

    /// The title shown with the task's progress.
    public var title: String { details.withLock { $0.title } }

    /// The subtitle shown with the task's progress.
    public var subtitle: String { details.withLock { $0.subtitle } }

    /// Changes the title and subtitle shown with the task's progress.
    /// - Parameters:
    ///   - title: The new title.
    ///   - subtitle: The new subtitle.
    public func updateTitle(_ title: String, subtitle: String) {
        details.withLock {
            $0.title = title
            $0.subtitle = subtitle
        }
        reportIfChanged()
    }

    public override func setTaskCompleted(success: Bool) {
        let wasReporting = details.withLock { details in
            defer { details.isReporting = false }
            return details.isReporting
        }
        if wasReporting {
            timer.cancel()
            // The last progress reaches the service before the completion, on the same connection.
            reportIfChanged()
        }
        super.setTaskCompleted(success: success)
    }

    private func startReporting() {
        timer.schedule(deadline: .now(), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.reportIfChanged() }
        timer.resume()
    }

    private func reportIfChanged() {
        let current = details.withLock { details -> TaskProgress? in
            let current = TaskProgress(
                completedUnitCount: progress.completedUnitCount, totalUnitCount: progress.totalUnitCount,
                title: details.title, subtitle: details.subtitle)
            guard current != details.lastReported else { return nil }
            details.lastReported = current
            return current
        }
        if let current { report(current) }
    }
}
