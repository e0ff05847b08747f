/*
Abstract:
What an app asks the scheduler for: a refresh or a processing task, not before a date.
*/

import Foundation

/// A request to launch the app in the background to run a task; use a subclass.
public class BGTaskRequest: NSObject, NSCopying {
    /// The identifier of the task, one listed in the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// The earliest date the task may start; `nil` means as soon as the system allows.
    ///
    /// The scheduler decides when after this date the task really runs.
    public var earliestBeginDate: Date?

    init(identifier: String) {
        self.identifier = identifier
    }

    /// Returns a copy of the request.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self.makeCopy(of: self)
        copy.earliestBeginDate = earliestBeginDate
        return copy
    }

    class func makeCopy(of request: BGTaskRequest) -> BGTaskRequest {
        BGTaskRequest(identifier: request.identifier)
    }

    public override var description: String {
        "<\(type(of: self)): \(identifier), earliestBeginDate: \(earliestBeginDate.map { "\($0)" } ?? "(none)")>"
    }
}

/// A request to launch the app in the background to run a short refresh task.
public final class BGAppRefreshTaskRequest: BGTaskRequest {
    /// Creates a refresh request.
    /// - Parameter identifier: An identifier listed in `BGTaskSchedulerPermittedIdentifiers`.
    public override init(identifier: String) {
        super.init(identifier: identifier)
    }

    override class func makeCopy(of request: BGTaskRequest) -> BGTaskRequest {
        BGAppRefreshTaskRequest(identifier: request.identifier)
    }
}

/// A request to launch the app in the background to run a processing task that can take minutes.
public final class BGProcessingTaskRequest: BGTaskRequest {
    /// Whether the task needs the network; it runs only while the network is reachable. `false` by default.
    public var requiresNetworkConnectivity = false
    /// Whether the task needs external power; it runs only while the device is on power. `false` by default.
    public var requiresExternalPower = false

    /// Creates a processing request.
    /// - Parameter identifier: An identifier listed in `BGTaskSchedulerPermittedIdentifiers`.
    public override init(identifier: String) {
        super.init(identifier: identifier)
    }

    override class func makeCopy(of request: BGTaskRequest) -> BGTaskRequest {
        let copy = BGProcessingTaskRequest(identifier: request.identifier)
        if let request = request as? BGProcessingTaskRequest {
            copy.requiresNetworkConnectivity = request.requiresNetworkConnectivity
            copy.requiresExternalPower = request.requiresExternalPower
        }
        return copy
    }
}
