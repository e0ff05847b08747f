/*
Abstract:
A Background Tasks request the service holds for an app until it runs or is cancelled.
*/

import BackgroundAssetsIPC
import Foundation

/// One pending request: whose, what, and when it was submitted (device time).
public struct PendingTask: Sendable, Equatable {
    /// The app that submitted it.
    public var bundleIdentifier: String
    /// The request as the app described it.
    public var request: TaskRequestDescriptor
    /// When the app submitted it, on the device clock.
    public var submitted: Date

    /// Creates a pending task.
    public init(bundleIdentifier: String, request: TaskRequestDescriptor, submitted: Date) {
        self.bundleIdentifier = bundleIdentifier
        self.request = request
        self.submitted = submitted
    }
}
