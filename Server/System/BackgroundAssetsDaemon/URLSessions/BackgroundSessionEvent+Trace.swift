/*
Abstract:
How a background session's events appear in the trace: by the delegate method each becomes.
*/

import BackgroundAssetsIPC

extension BackgroundSessionEvent {
    /// The delegate method the event becomes, for the trace; `nil` for progress, which the trace samples.
    var delegateCall: String? {
        switch self {
        case .attached, .resumed, .wroteData, .updated, .sentBodyData: nil
        case .finishedDownloading: "didFinishDownloadingTo"
        case .completed: "didCompleteWithError"
        case .challenge: "didReceiveChallenge"
        case .waitingEventsDelivered: "urlSessionDidFinishEvents"
        case .receivedData: "didReceiveData"
        }
    }

    /// The task the event is about, if it is about one.
    var taskIdentifier: Int? {
        switch self {
        case .attached, .waitingEventsDelivered: nil
        case let .resumed(task, _, _), let .wroteData(task, _, _, _), let .finishedDownloading(task, _, _), let .challenge(task, _, _),
            let .sentBodyData(task, _, _, _), let .receivedData(task, _):
            task
        case let .updated(snapshot), let .completed(snapshot): snapshot.taskIdentifier
        }
    }
}

extension BackgroundSessionEvent {
    /// What the trace says beside the delegate method.
    var traceDetail: String? {
        switch self {
        case let .finishedDownloading(_, file, _): file.lastPathComponent
        case let .receivedData(_, data): "\(data.count) bytes"
        case let .completed(snapshot): snapshot.failure.map { "\($0.error.domain) \($0.error.code): \($0.error.message)" } ?? "no error"
        default: nil
        }
    }
}
