/*
Abstract:
Whether a continued-processing request is accepted, with Apple's error code and the reason when it is not.
*/

import BackgroundAssetsIPC

/// Apple's rules for submitting a `BGContinuedProcessingTaskRequest`, decided from what the service
/// knows; a pure value, like ``TaskEligibility``.
public enum ContinuedProcessingAdmission: Sendable, Equatable {
    /// Accepted: queue it; it starts as soon as there is room.
    case accept
    /// Refused with a `BGTaskSchedulerErrorDomain` code and a sentence saying what to do.
    case refuse(code: Int, message: String)

    /// The resources beyond the default CPU and network this device lends to background work: none.
    public static let supportedResources = 0

    /// The facts a decision needs.
    public struct Facts: Sendable {
        /// The request.
        public var request: TaskRequestDescriptor
        /// The app that submits it.
        public var bundleIdentifier: String
        /// The installed app's Info.plist rules.
        public var permission: TaskPermission
        /// Whether the submitting connection registered a launch handler for the identifier or its `prefix.*` entry.
        public var hasLaunchHandler: Bool
        /// Whether the app was launched in the background (for other tasks), not by a person.
        public var isBackgroundLaunch: Bool
        /// The app's other continued-processing requests waiting for room.
        public var queuedOfApp: Int
        /// Continued-processing requests waiting for room, across apps.
        public var queued: Int
        /// Continued-processing tasks running, across apps.
        public var running: Int

        /// Gathers the facts.
        public init(
            request: TaskRequestDescriptor, bundleIdentifier: String, permission: TaskPermission, hasLaunchHandler: Bool,
            isBackgroundLaunch: Bool, queuedOfApp: Int, queued: Int, running: Int
        ) {
            self.request = request
            self.bundleIdentifier = bundleIdentifier
            self.permission = permission
            self.hasLaunchHandler = hasLaunchHandler
            self.isBackgroundLaunch = isBackgroundLaunch
            self.queuedOfApp = queuedOfApp
            self.queued = queued
            self.running = running
        }
    }

    /// Decides, checking in the order a developer would fix things: the Info.plist, the device, the
    /// app's own calls, then the system's load.
    public static func of(_ facts: Facts) -> ContinuedProcessingAdmission {
        let identifier = facts.request.identifier.prefix(200)
        if let refusal = facts.permission.refusalToSubmit(
            facts.request.identifier, kind: .continuedProcessing, bundleIdentifier: facts.bundleIdentifier)
        {
            return .refuse(code: 3, message: refusal)
        }
        let unsupported = (facts.request.requiredResources ?? 0) & ~supportedResources
        if unsupported != 0 {
            let named = unsupported & 1 != 0 ? "the GPU" : "resources \(unsupported)"
            return .refuse(
                code: 3,
                message: "\(identifier) asks for \(named), which this device does not lend to background work "
                    + "(BGTaskScheduler.supportedResources is empty); submit it without requiredResources.")
        }
        if facts.isBackgroundLaunch {
            return .refuse(
                code: 1,
                message: "\(facts.bundleIdentifier) was launched in the background; a continued-processing request "
                    + "must come from the app in the foreground, in response to a person's action.")
        }
        if !facts.hasLaunchHandler {
            return .refuse(
                code: 3,
                message: "No launch handler is registered for \(identifier); register one with "
                    + "BGTaskScheduler.shared.register(forTaskWithIdentifier:using:launchHandler:) before submitting.")
        }
        let limit = TaskRequestDescriptor.Kind.continuedProcessing.pendingLimit
        if facts.queuedOfApp >= limit {
            return .refuse(
                code: 2,
                message: "\(facts.bundleIdentifier) already has \(facts.queuedOfApp) continued-processing requests "
                    + "waiting, the most allowed; cancel one before submitting another.")
        }
        let isFull = !ContinuedProcessingPolicy.hasRoom(running: facts.running + facts.queued)
        if facts.request.submissionStrategy == .fail, isFull {
            return .refuse(
                code: 4,
                message: "\(identifier) cannot start now: \(facts.running) continued-processing task(s) run and "
                    + "\(facts.queued) wait, and the device runs \(ContinuedProcessingPolicy.maximumRunning) at once. "
                    + "Submit it again later, or with the .queue strategy to wait.")
        }
        return .accept
    }
}
