/*
Abstract:
The requests of Background Assets' download manager: downloads, their delegate, exclusive control.
*/

import Foundation

extension ClientRequest {
    /// The requests `BADownloadManager` makes for the app or its extension.
    public enum Downloads: Codable, Sendable, Equatable {
        /// Says whether this connection has a delegate and wants download events.
        case setDelegate(isSet: Bool)
        /// Queues a background download.
        case schedule(download: DownloadDescriptor)
        /// Starts a download in the foreground, promoting it if it is already queued or running.
        case startForeground(download: DownloadDescriptor)
        /// Removes a queued or running download.
        case cancel(download: DownloadDescriptor)
        /// Asks for the app's downloads that have not ended.
        case fetchCurrentDownloads
        /// Asks for a page of the app's current downloads (what `fetchCurrentDownloads` lists): 0 for the
        /// first page, then the cursor the previous page gave (``CurrentDownloadsPage/moreAfter``).
        case fetchCurrentDownloadsPage(after: Int64)
        /// Waits for the app's exclusive control, giving up at the deadline when there is one.
        case acquireExclusiveControl(deadline: Date?)
        /// Gives exclusive control back.
        case releaseExclusiveControl
        /// Answers a `didReceiveChallenge` event.
        case answerChallenge(deliveryID: UInt64, answer: ChallengeAnswer)
        /// Says a `finished` event's callback returned, so its file can be deleted unless it was moved.
        case acknowledgeDelivery(deliveryID: UInt64)
    }
}
