/*
Abstract:
The Background Tasks scheduler: register launch handlers, submit requests, and run the tasks the system hands over.
*/

import BackgroundAssets
import BackgroundAssetsIPC
import Dispatch
import Foundation
import Synchronization

/// Schedules task requests that launch the app in the background, and runs their handlers.
///
/// Register a launch handler for every identifier in `BGTaskSchedulerPermittedIdentifiers` while
/// the app launches, then submit requests:
/// ```swift
/// BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshIdentifier, using: nil) { task in
///     self.handleAppRefresh(task: task as! BGAppRefreshTask)
/// }
/// try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshIdentifier))
/// ```
/// The system runs a task only after the app has finished launching, never inside the code that
/// registers its handler: a launch that arrives while the app sets itself up waits for it.
/// - Note: On Apple platforms launch ends when `application(_:didFinishLaunchingWithOptions:)`
///   returns. A Linux process has no such moment, so registering is refused after the app's first
///   `submit`, `cancel` or `getPendingTaskRequests` call, and launch handlers run once the main
///   thread is free (back in `dispatchMain()`, `RunLoop.main`, or at an `await` of an async
///   `main`); a process that never frees its main thread receives no task. Where Apple's
///   framework raises an exception (a second registration, a registration after launch, an
///   identifier that is not permitted), `register` returns `false` and says why on standard error.
public final class BGTaskScheduler: NSObject, Sendable {
    private struct Registration {
        let queue: DispatchQueue?
        let handler: UncheckedReference<(BGTask) -> Void>
    }

    private struct State {
        var registrations: [String: Registration] = [:]
        var launchFinished = false
        var started = false
        var running: [UInt64: BGTask] = [:]
    }

    /// The shared scheduler of this process.
    public static let shared = BGTaskScheduler(environment: .current())

    /// The domain of the scheduler's errors, `BGTaskSchedulerErrorDomain`.
    public static let errorDomain = BGTaskSchedulerErrorDomain

    /// The resources beyond the default CPU and network that this device lets a continued-processing
    /// task ask for: none, because it has no GPU it lends to background work. A request that asks
    /// for ``BGContinuedProcessingTaskRequest/Resources/gpu`` is refused with `.notPermitted`.
    public static var supportedResources: BGContinuedProcessingTaskRequest.Resources { [] }

    private let environment: TaskSchedulerEnvironment
    private let state = Mutex(State())

    init(environment: TaskSchedulerEnvironment) {
        self.environment = environment
    }

    // MARK: - Registering launch handlers

    /// Registers the code that runs a task, before the app finishes launching.
    ///
    /// - Parameters:
    ///   - identifier: An identifier from the app's `BGTaskSchedulerPermittedIdentifiers`.
    ///   - queue: The queue the handler runs on; `nil` for a background queue.
    ///   - launchHandler: Runs the task; it receives a ``BGAppRefreshTask`` or a ``BGProcessingTask``.
    /// - Returns: `true` if the handler was registered; `false` if the identifier is not permitted,
    ///   already registered, registered after launch, or the caller is an extension.
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool {
        if let refusal = refusalToRegister(identifier) {
            environment.report("BGTaskScheduler could not register \"\(identifier.prefix(200))\": \(refusal)")
            return false
        }
        let registration = Registration(queue: queue, handler: UncheckedReference(launchHandler))
        // Continued-processing identifiers are registered when a person starts the work, after launch.
        let isContinuedProcessing = environment.permission?.wildcardEntry(matching: identifier) != nil
        let refusal: String? = state.withLock { state in
            if state.launchFinished, !isContinuedProcessing {
                return "the app has finished launching (it already called submit, cancel or getPendingTaskRequests). "
                    + "Register every launch handler first, as the app starts."
            }
            if state.registrations[identifier] != nil {
                return "a launch handler for it is already registered; register each identifier once."
            }
            state.registrations[identifier] = registration
            return nil
        }
        if let refusal {
            environment.report("BGTaskScheduler could not register \"\(identifier.prefix(200))\": \(refusal)")
            return false
        }
        startIfNeeded()
        do {
            try environment.transport.registerHandler(for: identifier)
        } catch {
            _ = state.withLock { $0.registrations.removeValue(forKey: identifier) }
            environment.report("BGTaskScheduler could not register \"\(identifier.prefix(200))\": \(error)")
            return false
        }
        return true
    }

    private func refusalToRegister(_ identifier: String) -> String? {
        if environment.isExtension {
            return "Background Tasks are not available to app extensions; register in the app."
        }
        return environment.permission?.refusalToRegister(identifier)
    }

    // MARK: - Submitting and cancelling requests

    /// Submits a request to run a task later; a pending request with the same identifier is replaced.
    ///
    /// - Parameter taskRequest: A ``BGAppRefreshTaskRequest``, a ``BGProcessingTaskRequest`` or a
    ///   ``BGContinuedProcessingTaskRequest``.
    /// - Throws: ``BGTaskScheduler/Error`` with `.notPermitted` when the identifier or its background
    ///   mode is missing from the Info.plist, when a continued-processing request has no launch
    ///   handler registered or asks for resources the device lacks; `.tooManyPendingTaskRequests` past
    ///   one refresh or ten processing requests; `.immediateRunIneligible` when a continued-processing
    ///   request with the `.fail` strategy cannot start at once; `.unavailable` in an extension, in an
    ///   app launched in the background for a continued-processing request, in Low Power Mode for the
    ///   other kinds, or with background app refresh off.
    public func submit(_ taskRequest: BGTaskRequest) throws {
        finishLaunching()
        guard let descriptor = TaskRequestDescriptor(taskRequest) else {
            throw Error(
                .notPermitted,
                message: "Submit a BGAppRefreshTaskRequest, a BGProcessingTaskRequest or a BGContinuedProcessingTaskRequest.")
        }
        if environment.isExtension {
            throw Error(.unavailable, message: "Background Tasks are not available to app extensions; submit from the app.")
        }
        let bundleIdentifier = environment.bundleIdentifier
        if let refusal = environment.permission?.refusalToSubmit(
            descriptor.identifier, kind: descriptor.kind, bundleIdentifier: bundleIdentifier)
        {
            throw Error(.notPermitted, message: refusal)
        }
        if let continued = taskRequest as? BGContinuedProcessingTaskRequest { try checkBeforeSubmitting(continued) }
        try environment.transport.submit(descriptor)
    }

    /// Apple's rules for a continued-processing request that the app can check itself.
    private func checkBeforeSubmitting(_ request: BGContinuedProcessingTaskRequest) throws {
        let identifier = request.identifier.prefix(200)
        if environment.isBackgroundLaunch {
            throw Error(
                .unavailable,
                message: "A continued-processing request must come from the app in the foreground, in response to "
                    + "a person's action; this process was launched in the background.")
        }
        let unsupported = request.requiredResources.subtracting(Self.supportedResources)
        if !unsupported.isEmpty {
            let named = unsupported.contains(.gpu) ? "the GPU" : "resources \(unsupported.rawValue)"
            throw Error(
                .notPermitted,
                message: "\(identifier) asks for \(named), which this device does not lend to background work; "
                    + "BGTaskScheduler.supportedResources lists what it does. Submit it without them.")
        }
        guard registration(for: request.identifier) != nil else {
            throw Error(
                .notPermitted,
                message: "No launch handler is registered for \(identifier); call "
                    + "register(forTaskWithIdentifier:using:launchHandler:) with it before submitting.")
        }
    }

    /// The registration that runs tasks with this identifier: its own, or its `prefix.*` entry's.
    private func registration(for identifier: String) -> Registration? {
        let wildcard = environment.permission?.wildcardEntry(matching: identifier)
        return state.withLock { state in
            state.registrations[identifier] ?? wildcard.flatMap { state.registrations[$0] }
        }
    }

    /// Cancels the pending request with this identifier, if there is one.
    /// - Parameter identifier: The request's identifier.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        finishLaunching()
        environment.transport.cancel(identifier: identifier)
    }

    /// Cancels every pending request of the app.
    public func cancelAllTaskRequests() {
        finishLaunching()
        environment.transport.cancel(identifier: nil)
    }

    /// Gets the app's requests that have not run yet.
    /// - Parameter completionHandler: Receives the requests, on a background queue.
    public func getPendingTaskRequests(completionHandler: @escaping ([BGTaskRequest]) -> Void) {
        let handler = UncheckedReference(completionHandler)
        finishLaunching()
        let transport = environment.transport
        DispatchQueue.global().async {
            let requests = ((try? transport.pendingRequests()) ?? []).map { $0.request }
            handler.value(requests)
        }
    }

    /// The app's requests that have not run yet.
    public func pendingTaskRequests() async -> [BGTaskRequest] {
        finishLaunching()
        let transport = environment.transport
        let descriptors = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: (try? transport.pendingRequests()) ?? []) }
        }
        return descriptors.map { $0.request }
    }

    private func finishLaunching() {
        state.withLock { $0.launchFinished = true }
    }

    // MARK: - Running tasks

    private func startIfNeeded() {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        // Launches and expirations arrive on the connection's thread, possibly while the app's
        // start-up code still runs; both wait for the end of launch, in the order they came.
        let afterLaunch = environment.afterLaunch
        environment.transport.start(
            events: TaskEvents(
                launch: { [weak self] taskID, request in
                    guard let self else { return }
                    afterLaunch { self.launch(taskID: taskID, request: request) }
                },
                expire: { [weak self] taskID in
                    guard let self else { return }
                    afterLaunch { self.expire(taskID: taskID) }
                }))
    }

    private func launch(taskID: UInt64, request: TaskRequestDescriptor) {
        let transport = environment.transport
        let completion: @Sendable (Bool) -> Void = { [weak self] success in
            _ = self?.state.withLock { $0.running.removeValue(forKey: taskID) }
            transport.complete(taskID: taskID, success: success)
        }
        let task: BGTask =
            switch request.kind {
            case .appRefresh: BGAppRefreshTask(identifier: request.identifier, completion: completion)
            case .processing: BGProcessingTask(identifier: request.identifier, completion: completion)
            case .continuedProcessing:
                BGContinuedProcessingTask(
                    identifier: request.identifier, title: request.title ?? "", subtitle: request.subtitle ?? "",
                    report: { progress in transport.reportProgress(taskID: taskID, progress: progress) },
                    completion: completion)
            }
        let registration = registration(for: request.identifier)
        state.withLock { $0.running[taskID] = task }
        guard let registration else {
            environment.report("BGTaskScheduler has no launch handler for \"\(request.identifier)\"; the task ends unrun.")
            task.setTaskCompleted(success: false)
            return
        }
        (registration.queue ?? DispatchQueue.global()).async { registration.handler.value(task) }
    }

    private func expire(taskID: UInt64) {
        guard let task = state.withLock({ $0.running[taskID] }) else { return }
        (registration(for: task.identifier)?.queue ?? DispatchQueue.global()).async { task.expire() }
    }
}
