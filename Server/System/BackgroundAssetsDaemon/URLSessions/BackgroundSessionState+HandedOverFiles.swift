/*
Abstract:
Which handed-over files the sessions' events still name: the one rule for removing a file from a session's folder.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionState {
    /// The handed-over files the events of a session still name: waiting for a process, or sent and
    /// waiting for `didFinishDownloadingTo` to return.
    ///
    /// The invariant of a session's folder: a file is removed only when no event of its session
    /// names it, as the state stands at the removal. A transfer's end can reach the state twice
    /// across a restart of the service (from the queue's event, and from the queue's row as the
    /// restarted host settles its running tasks), and the host's sweep of leftovers runs while
    /// transfers end: neither may take away the file an event promises the app.
    /// - Parameter key: The session.
    /// - Returns: The files' paths.
    public func filesNamedByEvents(of key: BackgroundSessionKey) -> Set<String> {
        guard let record = records[key] else { return [] }
        var files = Set<String>()
        for event in record.waiting + (record.unacknowledged ?? []) {
            if case let .finishedDownloading(_, file, _) = event { files.insert(file.path) }
        }
        return files
    }

    /// The action that disposes of a handed-over file no task waits for: none while an event of the
    /// session names it (the same file, handed over once and reported twice).
    func removal(ofUnwanted file: URL, key: BackgroundSessionKey) -> [BackgroundSessionAction] {
        filesNamedByEvents(of: key).contains(file.path) ? [] : [.removeFile(file)]
    }
}
