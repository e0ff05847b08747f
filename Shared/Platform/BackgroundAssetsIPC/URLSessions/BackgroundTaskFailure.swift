/*
Abstract:
Why a background download ended without a file: an NSURLErrorDomain error, its resume data, and a cancellation's reason.
*/

import Foundation

/// A task's error as the system reports it; the framework turns it into the `NSError` Apple's
/// delegate receives in `urlSession(_:task:didCompleteWithError:)`.
public struct BackgroundTaskFailure: Codable, Sendable, Hashable {
    /// Why the system cancelled a task, with the raw values of Apple's
    /// `NSURLErrorCancelledReason…` constants (the value of `NSURLErrorBackgroundTaskCancelledReasonKey`).
    public enum CancelledReason: Int, Codable, Sendable, Hashable {
        /// The person force-quit the app.
        case userForceQuitApplication = 0
        /// Background updates were turned off for the app.
        case backgroundUpdatesDisabled = 1
        /// The system ran short of resources.
        case insufficientSystemResources = 2
    }

    /// The error: its domain, code and a sentence saying what to do next.
    public var error: WireFailure
    /// Data that `downloadTask(withResumeData:)` continues from, when the transfer can resume.
    public var resumeData: Data?
    /// Why the system cancelled the task, when it did.
    public var cancelledReason: CancelledReason?

    /// Creates a failure.
    public init(error: WireFailure, resumeData: Data? = nil, cancelledReason: CancelledReason? = nil) {
        self.error = error
        self.resumeData = resumeData
        self.cancelledReason = cancelledReason
    }

    /// Foundation's `NSURLErrorCancelled`.
    public static let cancelledCode = -999

    /// A task cancelled by the app, or by the system for a reason.
    public static func cancelled(resumeData: Data? = nil, reason: CancelledReason? = nil) -> BackgroundTaskFailure {
        let message = switch reason {
        case nil: "The task was cancelled."
        case .userForceQuitApplication: "The task was cancelled because the app was force-quit; open the app and start it again."
        case .backgroundUpdatesDisabled: "The task was cancelled because background updates are off for the app; turn them on and start it again."
        case .insufficientSystemResources: "The task was cancelled because the device ran short of resources; start it again later."
        }
        return BackgroundTaskFailure(error: WireFailure(domain: WireFailure.urlDomain, code: cancelledCode, message: message),
                                     resumeData: resumeData, cancelledReason: reason)
    }
}
