/*
Abstract:
Delegates declared in files with mixed imports adopt this module's protocols, so they hear urlSessionDidFinishEvents.
*/

import BackgroundURLSessions
import Testing

@Suite struct ImportOrderTests {
    // This file imports BackgroundURLSessions alone, so the names here are the module's own: a
    // delegate from a mixed-import file that had adopted Foundation's protocol instead would fail
    // these casts, and would never be told its waiting events were delivered.
    @Test("A delegate in a file importing BackgroundTasks first adopts the session's delegate protocols")
    func tasksFirst() {
        #expect((RefreshingDownloader() as AnyObject) is any URLSessionDownloadDelegate)
        #expect((TasksFirstUploadDelegate() as AnyObject) is any URLSessionDataDelegate)
    }

    @Test("A delegate in a file importing BackgroundURLSessions first adopts the session's delegate protocols")
    func urlSessionsFirst() {
        #expect((URLSessionsFirstDownloader() as AnyObject) is any URLSessionDownloadDelegate)
    }
}
