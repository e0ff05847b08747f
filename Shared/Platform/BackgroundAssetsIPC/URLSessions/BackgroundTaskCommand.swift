/*
Abstract:
What an app does to one task of a background session: resume, suspend, cancel, or describe it.
*/

import Foundation

/// A change the app makes to one task, as `changeURLSessionTask` carries it.
public enum BackgroundTaskCommand: Codable, Sendable, Hashable {
    /// Start or continue the transfer, with the values the app set on the task before `resume()`.
    case resume(earliestBeginDate: Date?, countOfBytesClientExpectsToReceive: Int64)
    /// Pause the transfer; it keeps its bytes.
    case suspend
    /// Cancel the task; it completes with `NSURLErrorCancelled`.
    case cancel
    /// Cancel the task and keep its partial file for `downloadTask(withResumeData:)`.
    case cancelProducingResumeData
    /// Record the app's description of the task.
    case describe(String?)
}
