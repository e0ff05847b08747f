/*
Abstract:
A task the system runs for the app in the background, and how the app ends it.
*/

import BackgroundAssets
import Foundation
import Synchronization

/// A task the scheduler launched; the launch handler receives it. Use a subclass's instance.
///
/// Set ``expirationHandler`` at the start of the handler, and call ``setTaskCompleted(success:)``
/// exactly once when the work is done, or when the expiration handler runs.
public class BGTask: NSObject, @unchecked Sendable {
    // @unchecked: the only mutable state is behind `state`'s lock.

    private struct State {
        var expirationHandler: (() -> Void)?
        var isCompleted = false
    }

    /// The identifier the task was registered and submitted with.
    public let identifier: String
    private let state = Mutex(State())
    private let completion: @Sendable (Bool) -> Void

    init(identifier: String, completion: @escaping @Sendable (Bool) -> Void) {
        self.identifier = identifier
        self.completion = completion
    }

    /// The code to run when the task's time is nearly up.
    ///
    /// It must stop the work quickly and call ``setTaskCompleted(success:)``; a task still running
    /// after its time limit ends with its process killed, when the system launched the app for it.
    public var expirationHandler: (() -> Void)? {
        get { state.withLock { $0.expirationHandler.map(UncheckedReference.init) }?.value }
        set {
            let handler = newValue.map(UncheckedReference.init)
            state.withLock { $0.expirationHandler = handler?.value }
        }
    }

    /// Tells the system the task is done.
    ///
    /// Call it once; later calls are ignored. An app launched only for its tasks exits when none is left.
    /// - Parameter success: Whether the work succeeded.
    public func setTaskCompleted(success: Bool) {
        let first = state.withLock { state in
            defer { state.isCompleted = true }
            state.expirationHandler = nil
            return !state.isCompleted
        }
        if first { completion(success) }
    }

    /// Runs the expiration handler, if the task has one and has not completed.
    func expire() {
        let handler = state.withLock { $0.isCompleted ? nil : $0.expirationHandler.map(UncheckedReference.init) }
        handler?.value()
    }

    var isCompleted: Bool { state.withLock { $0.isCompleted } }
}

/// A task that refreshes the app's content in the background, for a ``BGAppRefreshTaskRequest``.
public final class BGAppRefreshTask: BGTask, @unchecked Sendable {}

/// A task that runs minutes of work in the background, for a ``BGProcessingTaskRequest``.
public final class BGProcessingTask: BGTask, @unchecked Sendable {}
