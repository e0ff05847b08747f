/*
Abstract:
Every long-running activity of the service (timers, watchers, routing loops) under one owner with one shutdown.
*/

import Foundation
import Synchronization

/// The owner of everything the service runs in the background: timers, watchers, event loops and
/// the work they start.
///
/// Each activity is a task registered here until it ends, so ``shutdown()`` cancels every one and
/// waits for each to finish, and a test can check that nothing is left running. One timer is
/// cancelled on its own (a deadline met, an idle extension woken), which a task group's children
/// cannot be; hence a registry of tasks rather than a task group, with the same guarantee: no
/// activity outlives its owner's shutdown.
public final class ServiceActivities: Sendable {
    /// One activity, to cancel on its own.
    public struct Activity: Sendable {
        fileprivate let id: UInt64
        fileprivate weak var owner: ServiceActivities?

        /// Cancels the activity; its task sees the cancellation at its next suspension.
        public func cancel() {
            owner?.cancel(id)
        }
    }

    private struct State {
        var running: [UInt64: (name: String, task: Task<Void, Never>)] = [:]
        var nextID: UInt64 = 1
        var isShutDown = false
    }

    /// The real time the activities' delays run on.
    public let wallClock: any ServiceClock
    private let state = Mutex(State())

    /// Creates an owner whose delays run on `wallClock`.
    /// - Parameter wallClock: The real time, which the composition root (``ServiceRunner``, or a test)
    ///   creates: the machine's, or one a test advances by hand.
    public init(wallClock: any ServiceClock) {
        self.wallClock = wallClock
    }

    /// Starts an activity; after ``shutdown()`` nothing starts.
    /// - Parameters:
    ///   - name: What it is, for ``runningNames`` in tests and diagnostics.
    ///   - body: The work; it should end when its task is cancelled.
    /// - Returns: The activity, to cancel it on its own.
    @discardableResult
    public func run(_ name: String, _ body: @escaping @Sendable () async -> Void) -> Activity {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            guard !state.isShutDown else { return Activity(id: id, owner: nil) }
            // Registered under the lock it removes itself under: even a body that ends at once is
            // registered first.
            let task = Task { [weak self] in
                await body()
                self?.finished(id)
            }
            state.running[id] = (name, task)
            return Activity(id: id, owner: self)
        }
    }

    /// Runs `body` once `delay` has passed on the clock, unless the activity is cancelled first.
    ///
    /// The delay counts from this call, not from when the activity's task first runs: a task that
    /// starts late on a busy machine, after a test has advanced its clock, still wakes on time.
    @discardableResult
    public func after(_ delay: Duration, _ name: String, _ body: @escaping @Sendable () async -> Void) -> Activity {
        let wallClock = wallClock
        let start = wallClock.now
        return run(name) {
            // What the clock moved before this task ran comes off the delay. Dates so far from 1970
            // round to a fraction of a microsecond, so the rest is taken in whole microseconds,
            // rounded down: a clock advanced by hand by exactly the delay must end the wait.
            let late = max(0, wallClock.now.timeIntervalSince(start))
            let left = (delay - .seconds(fractional: late)) / .microseconds(1)
            if left >= 1 {
                guard (try? await wallClock.sleep(for: .microseconds(Int64(left)))) != nil else { return }
            }
            guard !Task.isCancelled else { return }
            await body()
        }
    }

    /// Whether ``close()`` or ``shutdown()`` has been called: nothing new may start, activities
    /// and processes alike.
    public var isClosed: Bool {
        state.withLock { $0.isShutDown }
    }

    /// Refuses every activity from now on, without waiting. The service calls it before it kills
    /// its processes, so an activity that runs while ``shutdown()`` waits cannot launch another one.
    public func close() {
        state.withLock { $0.isShutDown = true }
    }

    /// Cancels every activity and waits until each has ended; no activity starts afterwards.
    public func shutdown() async {
        let tasks = state.withLock { state in
            state.isShutDown = true
            return state.running.values.map(\.task)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// The names of the activities still running, sorted.
    public var runningNames: [String] {
        state.withLock { $0.running.values.map(\.name).sorted() }
    }

    private func cancel(_ id: UInt64) {
        state.withLock { $0.running[id]?.task }?.cancel()
    }

    private func finished(_ id: UInt64) {
        state.withLock { _ = $0.running.removeValue(forKey: id) }
    }
}
