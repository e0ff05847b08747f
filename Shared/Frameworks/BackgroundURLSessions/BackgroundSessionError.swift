/*
Abstract:
The errors background sessions report, as Foundation's NSURLErrorDomain errors with Apple's user-info keys.
*/

import BackgroundAssetsIPC
import Foundation

/// The key of a cancelled background task's reason in its error's user info; the value is one of
/// the `NSURLErrorCancelledReason…` constants.
///
/// - Note: Foundation on Linux does not declare it; the value is Apple's.
public let NSURLErrorBackgroundTaskCancelledReasonKey = "NSURLErrorBackgroundTaskCancelledReasonKey"
/// The person force-quit the app.
public let NSURLErrorCancelledReasonUserForceQuitApplication = 0
/// The system cancelled the task because background updates are off for the app.
public let NSURLErrorCancelledReasonBackgroundUpdatesDisabled = 1
/// The system cancelled the task because it ran short of resources.
public let NSURLErrorCancelledReasonInsufficientSystemResources = 2

/// Builds the errors a background session's delegate receives.
enum BackgroundSessionError {
    /// Foundation's `NSURLErrorUnknown`: Apple raises an exception for a refused task; here the
    /// task completes with this code and Apple's reason instead.
    static let refusedCode = -1

    /// A session the system refused, or a task it cannot run, with the reason.
    static func refused(_ reason: String) -> NSError {
        NSError(domain: NSURLErrorDomain, code: refusedCode, userInfo: [NSLocalizedDescriptionKey: reason])
    }

    /// A task made or changed after the session was invalidated.
    static var invalidated: NSError {
        refused("Task created in a session that has been invalidated; make a new session with the same identifier.")
    }

    /// The error of a task that completed with a failure, with its resume data and cancellation reason.
    static func error(for failure: BackgroundTaskFailure, url: URL) -> NSError {
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: failure.error.message,
            NSURLErrorFailingURLErrorKey: url,
        ]
        if let resumeData = failure.resumeData { userInfo[URLSessionDownloadTaskResumeData] = resumeData }
        if let reason = failure.cancelledReason { userInfo[NSURLErrorBackgroundTaskCancelledReasonKey] = reason.rawValue }
        return NSError(domain: failure.error.domain, code: failure.error.code, userInfo: userInfo)
    }

    /// Apple's reasons for what a background session refuses.
    enum Reason {
        static let dataTasks = "Data tasks are not supported in background sessions; use a download task, "
            + "or a default session for data tasks."
        static let completionHandlers = "Completion handler blocks are not supported in background sessions. "
            + "Use a delegate instead."
        static let uploadsFromData = "Upload tasks from NSData are not supported in background sessions; write the "
            + "data to a file and use uploadTask(with:fromFile:)."
        static let streamedUploads = "Upload tasks with a stream are not supported in background sessions; write the "
            + "body to a file and use uploadTask(with:fromFile:)."
    }
}
