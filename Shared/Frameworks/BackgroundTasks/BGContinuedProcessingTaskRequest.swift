/*
Abstract:
A request for work a person starts in the app, which goes on in the background while it reports progress.
*/

import Foundation

/// A request to run work now that continues if the app moves to the background, as Apple's
/// `BGContinuedProcessingTaskRequest` (iOS 26) does.
///
/// Submit it from the foreground, in response to a person's action, after registering a launch
/// handler for its identifier (these registrations may come after launch):
/// ```swift
/// let identifier = "\(Bundle.main.bundleIdentifier!).export.\(UUID().uuidString)"
/// BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
///     export(task as! BGContinuedProcessingTask)
/// }
/// try BGTaskScheduler.shared.submit(BGContinuedProcessingTaskRequest(
///     identifier: identifier, title: "Exporting photos", subtitle: "0 of 7"))
/// ```
/// The identifier is the app's bundle identifier, some context, and a unique end, matched by an
/// entry ending in `.*` in `BGTaskSchedulerPermittedIdentifiers` (`com.example.MyApp.export.*`).
/// ``BGTaskRequest/earliestBeginDate`` is ignored: the task starts as soon as there is room.
public final class BGContinuedProcessingTaskRequest: BGTaskRequest {
    /// What the scheduler does when it cannot run the task at once.
    public enum SubmissionStrategy: Int, Sendable {
        /// Refuse the submission with ``BGTaskScheduler/Error/Code/immediateRunIneligible``.
        case fail = 0
        /// Queue the request until there is room; the default. Queued requests are cancelled when
        /// the app exits, as Apple's are when a person removes the app from the app switcher.
        case queue = 1
    }

    /// System resources a task needs beyond the default CPU and network.
    public struct Resources: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        /// Creates a set of resources from Apple's bit values.
        /// - Parameter rawValue: The bits; 1 is the GPU.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The GPU in the background; check ``BGTaskScheduler/supportedResources`` first.
        public static var gpu: Resources { Resources(rawValue: 1 << 0) }
    }

    /// The title shown while the task waits and runs.
    public var title: String
    /// The subtitle shown while the task waits and runs.
    public var subtitle: String
    /// What the scheduler does when it cannot run the task at once; ``SubmissionStrategy/queue`` by default.
    public var strategy: SubmissionStrategy = .queue
    /// The resources the task needs beyond the default; none by default.
    public var requiredResources: Resources = []

    /// Creates a request on behalf of the app in the foreground.
    /// - Parameters:
    ///   - identifier: The app's bundle identifier, context and a unique end, matched by a `prefix.*`
    ///     entry of `BGTaskSchedulerPermittedIdentifiers`.
    ///   - title: The title shown before the task begins.
    ///   - subtitle: The subtitle shown before the task begins.
    public init(identifier: String, title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
        super.init(identifier: identifier)
    }

    override class func makeCopy(of request: BGTaskRequest) -> BGTaskRequest {
        guard let request = request as? BGContinuedProcessingTaskRequest else { return super.makeCopy(of: request) }
        let copy = BGContinuedProcessingTaskRequest(identifier: request.identifier, title: request.title, subtitle: request.subtitle)
        copy.strategy = request.strategy
        copy.requiredResources = request.requiredResources
        return copy
    }
}
