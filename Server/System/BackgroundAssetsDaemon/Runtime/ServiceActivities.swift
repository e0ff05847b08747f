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
        /// Activities whose body ended before they were registered.
        var endedUnregistered: Set<UInt64> = []
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
        start(name, body)
    }

    private func start(_ name: String, _ body: sending @escaping () async -> Void) -> Activity {
        let id: UInt64? = state.withLock { state in
            defer { state.nextID += 1 }
            return state.isShutDown ? nil : state.nextID
        }
        guard let id else { return Activity(id: 0, owner: nil) }
        // Made outside the lock, which may not hold the body: the body is sent to the task.
        let task = Task { [weak self] in
            await body()
            self?.finished(id)
        }
        let shutDown = state.withLock { state in
            // A body that ended before it could be registered is left out, as if it had removed itself.
            if state.endedUnregistered.remove(id) == nil { state.running[id] = (name, task) }
            return state.isShutDown
        }
        // A shutdown that began in between waits for it too (it waits until nothing is registered).
        if shutDown { task.cancel() }
        return Activity(id: id, owner: self)
    }

    /// Starts an activity that runs in the caller's isolation, so it may use what the caller owns.
    ///
    /// A part of the service runs its own timers and readers this way and calls itself back
    /// directly, instead of sending an event to the hub to be handed back to it. The body inherits
    /// the caller's isolation the way `Task { }`'s operation does (hence the attribute `Task` uses):
    /// started from a method with an `isolated` parameter, or from an actor, it runs on that actor.
    /// - Parameters:
    ///   - name: What it is, for ``runningNames`` in tests and diagnostics.
    ///   - body: The work; it should end when its task is cancelled.
    /// - Returns: The activity, to cancel it on its own.
    @discardableResult
    public func runIsolated(_ name: String,
                            @_inheritActorContext(always) _ body: sending @escaping @isolated(any) () async -> Void) -> Activity {
        start(name, body)
    }

    /// Runs `body` once `delay` has passed on the clock, unless the activity is cancelled first.
    ///
    /// The delay counts from this call, not from when the activity's task first runs: it is
    /// ``at(_:_:_:)`` of the date read now, so a task that starts late on a busy machine, or a test
    /// that advances its clock before the task sleeps, still wakes on time.
    @discardableResult
    public func after(_ delay: Duration, _ name: String, _ body: @escaping @Sendable () async -> Void) -> Activity {
        at(wallClock.now.addingTimeInterval(delay.seconds), name, body)
    }

    /// Runs `body` in the caller's isolation once `delay` has passed on the clock, unless the
    /// activity is cancelled first: a part's own timer, which calls the part back directly (see
    /// ``runIsolated(_:_:)``).
    @discardableResult
    public func afterIsolated(_ delay: Duration, _ name: String,
                              @_inheritActorContext(always) _ body: sending @escaping @isolated(any) () async -> Void) -> Activity {
        atIsolated(wallClock.now.addingTimeInterval(delay.seconds), name, body)
    }

    /// Runs `body` once the clock shows `date`, unless the activity is cancelled first.
    ///
    /// For a deadline the caller keeps as a date (a download's next attempt, a call's deadline):
    /// the wait is for the date itself, so a clock moved between the caller's reading of it and this
    /// timer's (a test's, or the device clock the debug tool advances) cannot push the wake-up past
    /// the date, as a delay counted from a second reading would.
    @discardableResult
    public func at(_ date: Date, _ name: String, _ body: @escaping @Sendable () async -> Void) -> Activity {
        let wait = waitUntil(date)
        return run(name) {
            guard await wait() else { return }
            await body()
        }
    }

    /// Runs `body` in the caller's isolation once the clock shows `date`, unless the activity is
    /// cancelled first (see ``at(_:_:_:)`` and ``runIsolated(_:_:)``).
    @discardableResult
    public func atIsolated(_ date: Date, _ name: String,
                           @_inheritActorContext(always) _ body: sending @escaping @isolated(any) () async -> Void) -> Activity {
        let wait = waitUntil(date)
        return start(name) {
            guard await wait() else { return }
            await body()
        }
    }

    /// Waits until the clock shows `date`; `false` when the wait was cancelled.
    private func waitUntil(_ date: Date) -> @Sendable () async -> Bool {
        let wallClock = wallClock
        return {
            guard (try? await wallClock.sleep(until: date)) != nil else { return false }
            return !Task.isCancelled
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
        state.withLock { $0.isShutDown = true }
        // Until none is left: one that was being started as the shutdown began registers after it.
        while case let tasks = state.withLock({ $0.running.values.map(\.task) }), !tasks.isEmpty {
            for task in tasks { task.cancel() }
            for task in tasks { await task.value }
        }
    }

    /// The names of the activities still running, sorted.
    public var runningNames: [String] {
        state.withLock { $0.running.values.map(\.name).sorted() }
    }

    private func cancel(_ id: UInt64) {
        state.withLock { $0.running[id]?.task }?.cancel()
    }

    private func finished(_ id: UInt64) {
        state.withLock { state in
            if state.running.removeValue(forKey: id) == nil { state.endedUnregistered.insert(id) }
        }
    }
}
