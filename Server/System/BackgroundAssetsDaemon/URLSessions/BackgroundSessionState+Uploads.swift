/*
Abstract:
An upload's progress and its answer, turned into the events the app's delegate receives.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionState {
    /// An upload sent bytes: the task's counts, and `didSendBodyData` for the process that has the
    /// session. Progress of a session no process has is not kept: the next process reads the counts.
    public mutating func uploadProgressed(task: Int, key: BackgroundSessionKey, sent: Int64, total: Int64, expected: Int64)
        -> [BackgroundSessionAction]
    {
        guard records[key]?.tasks[task]?.state == .running else { return [] }
        records[key]?.tasks[task]?.countOfBytesSent = total
        records[key]?.tasks[task]?.countOfBytesExpectedToSend = expected
        guard let connection = attachments[key] else { return [] }
        return [.send(connection: connection, key, .sentBodyData(taskIdentifier: task, bytesSent: sent, totalBytesSent: total,
                                                                 totalBytesExpectedToSend: expected))]
    }

    /// The server answered an upload, whatever its status (as Foundation, which reports an HTTP
    /// error status as a response, not an error): the app gets the response, its body, then the
    /// task's completion, now or when it next makes the session.
    public mutating func uploadFinished(task: Int, key: BackgroundSessionKey, response: BackgroundTaskResponse, body: Data)
        -> [BackgroundSessionAction]
    {
        guard var snapshot = records[key]?.tasks[task], snapshot.state == .running else { return [] }
        snapshot.response = response
        snapshot.countOfBytesSent = snapshot.countOfBytesExpectedToSend
        snapshot.countOfBytesReceived = Int64(body.count)
        snapshot.countOfBytesExpectedToReceive = Int64(response.headers.first { $0.key.lowercased() == "content-length" }?.value ?? "")
            ?? Int64(body.count)
        records[key]?.tasks[task] = snapshot
        var actions = deliver(.updated(snapshot), key: key)
        if !body.isEmpty { actions += deliver(.receivedData(taskIdentifier: task, data: body), key: key) }
        return actions + complete(task: task, key: key, failure: nil)
    }
}
