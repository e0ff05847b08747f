/*
Abstract:
`earliestBeginDate`, which a background session's system honours and Foundation on Linux deprecates.
*/

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking

// Here, not in BackgroundURLSessions: Swift lets this declaration shadow Foundation's only where
// every import that brings FoundationNetworking into a file brings this module too. All the
// frameworks reach FoundationNetworking through this module, so a file that imports
// BackgroundURLSessions with BackgroundTasks, BackgroundAssets or UserNotifications, in any order,
// finds this one; declared in BackgroundURLSessions it would be ambiguous with Foundation's there.

/// A task that keeps the date its system starts the transfer at: a background session's task.
package protocol EarliestBeginDateKeeping: AnyObject {
    /// The value of `earliestBeginDate`, which the system reads on `resume()`.
    var keptEarliestBeginDate: Date? { get set }
}

extension URLSessionTask {
    /// The earliest date the system may begin the task's transfer.
    ///
    /// Set it before `resume()`. It applies to tasks of a background session: the system starts the
    /// transfer no earlier than this date (device time). On other tasks it has no effect, as Apple
    /// documents.
    /// - Note: swift-corelibs-foundation deprecates the property (it runs no background sessions);
    ///   this declaration shadows it for files that get Foundation through the frameworks. It keeps
    ///   no value for tasks of other sessions, which read `nil`. A file that imports
    ///   FoundationNetworking itself sees both declarations; leave that import out, the frameworks
    ///   bring it.
    public var earliestBeginDate: Date? {
        get { (self as? any EarliestBeginDateKeeping)?.keptEarliestBeginDate }
        set { (self as? any EarliestBeginDateKeeping)?.keptEarliestBeginDate = newValue }
    }
}
#endif
