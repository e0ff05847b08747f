/*
Abstract:
`earliestBeginDate`, which a background session's system honours and Foundation on Linux deprecates.
*/

import Foundation

extension URLSessionTask {
    /// The earliest date the system may begin the task's transfer.
    ///
    /// Set it before `resume()`. It applies to tasks of a background session: the system starts the
    /// transfer no earlier than this date (device time). On other tasks it has no effect, as Apple
    /// documents.
    /// - Note: swift-corelibs-foundation deprecates the property (it runs no background sessions);
    ///   this declaration shadows it for files that import BackgroundURLSessions instead of
    ///   Foundation. It keeps no value for tasks of other sessions, which read `nil`.
    public var earliestBeginDate: Date? {
        get { (self as? BackgroundDownloadTask)?.storedEarliestBeginDate }
        set { (self as? BackgroundDownloadTask)?.storedEarliestBeginDate = newValue }
    }
}
