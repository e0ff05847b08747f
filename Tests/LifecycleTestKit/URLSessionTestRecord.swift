/*
Abstract:
One line url-session-test-app records: a delegate call or a step of the app, read back by the end-to-end tests.
*/

import Foundation

/// One line of `url-session-test-app.jsonl` in the app group container.
///
/// `url-session-test-app` writes these and the end-to-end tests read them back; every field but
/// `event`, `pid` and `background` is left out of the line when it does not apply.
public struct URLSessionTestRecord: Codable, Sendable, Equatable {
    /// What happened, such as `didFinishDownloadingTo`, `listed` or `callingCompletionHandler`.
    public var event: String
    /// The process that recorded it.
    public var pid: Int32 = ProcessInfo.processInfo.processIdentifier
    /// Whether the service launched that process in the background.
    public var background = ProcessInfo.processInfo.environment["BG_TASK_BACKGROUND_LAUNCH"] == "1"
    /// The background session's identifier.
    public var session: String?
    /// The task's identifier, and for `listed` every task the session gave back.
    public var task: Int?
    public var tasks: [Int]?
    /// Bytes written, or the offset a resumed task continued from.
    public var bytes: Int64?
    /// The error of a task's end or of a failed step.
    public var code: Int?
    public var domain: String?
    public var message: String?
    /// The reason of a cancellation (`NSURLErrorCancelledReasonUserForceQuitApplication` and others).
    public var reason: Int?
    /// Whether the error or the cancellation carried resume data.
    public var hasResumeData: Bool?
    /// Where `didFinishDownloadingTo`'s file was moved.
    public var file: String?
    /// The HTTP status of the task's response, when it has one.
    public var status: Int?

    /// A record made in this process.
    public init(event: String, session: String? = nil, task: Int? = nil, code: Int? = nil, domain: String? = nil, message: String? = nil) {
        self.event = event
        self.session = session
        self.task = task
        self.code = code
        self.domain = domain
        self.message = message
    }
}
