/*
Abstract:
A Background Tasks request as the wire and the queue carry it: which task, when, and what it needs.
*/

import Foundation

/// A `BGTaskRequest` in a form the service can store and send back.
public struct TaskRequestDescriptor: Codable, Sendable, Hashable {
    /// The two kinds of task an app can request.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// `BGAppRefreshTaskRequest`: a short refresh; needs `UIBackgroundModes` `fetch`.
        case appRefresh
        /// `BGProcessingTaskRequest`: minutes of work; needs `UIBackgroundModes` `processing`.
        case processing

        /// The `UIBackgroundModes` entry an app must declare to submit this kind.
        public var backgroundMode: String {
            switch self {
            case .appRefresh: "fetch"
            case .processing: "processing"
            }
        }

        /// How many requests of this kind one app may have pending (Apple's documented limits).
        public var pendingLimit: Int {
            switch self {
            case .appRefresh: 1
            case .processing: 10
            }
        }
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
}
