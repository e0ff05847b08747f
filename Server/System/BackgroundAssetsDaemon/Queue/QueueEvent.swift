/*
Abstract:
What the download queue reports as its transfers run, for the service to route to the app or its extension.
*/

import BackgroundAssetsIPC
import Foundation

/// Something that happened to a download in the queue.
public enum QueueEvent: Sendable, Equatable {
    /// The download started (or resumed) transferring.
    case began(DownloadRow)
    /// The download stopped transferring without ending: promoted, or waiting to retry.
    case paused(DownloadRow)
    /// Bytes reached the staging file; totals never go down within an attempt.
    case progress(DownloadRow, bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpected: Int64)
    /// The server asked for credentials; the download waits for ``DownloadQueue/answerChallenge(id:answer:)``.
    case challenge(DownloadRow, ChallengeDescriptor)
    /// The download ended with its file, now at `file` inside the app group container.
    case finished(DownloadRow, file: URL)
    /// The download ended with an error.
    case failed(DownloadRow, WireFailure)
    /// The server answered the download with a redirect (`status`) that the transfer follows.
    case redirected(DownloadRow, from: URL, to: URL, status: Int)
}
