/*
Abstract:
A Background Tasks request as the wire and the queue carry it: which task, when, and what it needs.
*/

import Foundation

/// A `BGTaskRequest` in a form the service can store and send back.
public struct TaskRequestDescriptor: Codable, Sendable, Hashable {
    /// The kinds of task an app can request.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// `BGAppRefreshTaskRequest`: a short refresh; needs `UIBackgroundModes` `fetch`.
        case appRefresh
        /// `BGProcessingTaskRequest`: minutes of work; needs `UIBackgroundModes` `processing`.
        case processing
        /// `BGContinuedProcessingTaskRequest`: work a person started in the app, which goes on in the
        /// background while it reports progress; its identifier matches a `prefix.*` entry.
        case continuedProcessing

        /// The `UIBackgroundModes` entry an app must declare to submit this kind, if any.
        public var backgroundMode: String? {
            switch self {
            case .appRefresh: "fetch"
            case .processing: "processing"
            case .continuedProcessing: nil
            }
        }

        /// How many requests of this kind one app may have pending: Apple's documented limits for
        /// refresh and processing; for continued processing, which Apple documents none for, the
        /// processing limit.
        public var pendingLimit: Int {
            switch self {
            case .appRefresh: 1
            case .processing, .continuedProcessing: 10
            }
        }

        /// The word `tasks` and the messages use: refresh, processing, continued processing.
        public var displayName: String {
            switch self {
            case .appRefresh: "refresh"
            case .processing: "processing"
            case .continuedProcessing: "continued processing"
            }
        }
    }

    /// What a continued-processing request does when the system cannot run it at once.
    public enum SubmissionStrategy: String, Codable, Sendable, CaseIterable {
        /// Refuse it with `immediateRunIneligible`.
        case fail
        /// Queue it until there is room; the default.
        case queue
    }

    /// The task identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    public var identifier: String
    /// Refresh or processing.
    public var kind: Kind
    /// The earliest date the task may begin, on the device clock; `nil` means now.
    public var earliestBeginDate: Date?
    /// Processing only: run only while the network is reachable.
    public var requiresNetworkConnectivity: Bool
    /// Processing only: run only while the device is on external power.
    public var requiresExternalPower: Bool
    /// Continued processing only: the title and subtitle shown while it runs.
    public var title: String?
    /// Continued processing only: the subtitle shown while it runs.
    public var subtitle: String?
    /// Continued processing only: what to do when it cannot run at once; `nil` means queue.
    public var submissionStrategy: SubmissionStrategy?
    /// Continued processing only: the raw value of `BGContinuedProcessingTaskRequest.Resources`
    /// (1 is the GPU); `nil` means the default resources.
    public var requiredResources: Int?

    /// Creates a descriptor.
    public init(
        identifier: String, kind: Kind, earliestBeginDate: Date? = nil, requiresNetworkConnectivity: Bool = false,
        requiresExternalPower: Bool = false
    ) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBeginDate = earliestBeginDate
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
    }

    /// Creates the descriptor of a continued-processing request.
    public init(
        continuedProcessing identifier: String, title: String, subtitle: String, strategy: SubmissionStrategy,
        requiredResources: Int
    ) {
        self.init(identifier: identifier, kind: .continuedProcessing)
        self.title = title
        self.subtitle = subtitle
        submissionStrategy = strategy
        self.requiredResources = requiredResources
    }
}
