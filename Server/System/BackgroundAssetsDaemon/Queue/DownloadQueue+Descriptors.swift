/*
Abstract:
Starting transfers only while their descriptors fit below the ones the service keeps, and starting the rest once they do.
*/

import Foundation

extension DownloadQueue {
    /// How long downloads that wait for descriptors wait before the queue looks again, when no
    /// transfer is running whose end would make it look sooner.
    static let descriptorRetryInterval: Duration = .seconds(1)

    /// Whether a transfer may start now without taking the descriptors the service keeps for its
    /// own work (``DescriptorReserve``), beside `opening` transfers whose threads have not opened
    /// theirs yet (those started a moment ago in the same look at the queue, and running ones still
    /// connecting): looking at the descriptors in use does not count theirs.
    ///
    /// When it may not, the kept-alive connections idling in the pool are closed first (a new
    /// transfer would rather have their room); if that is not enough, the download waits, the log
    /// says why once, and the queue looks again when a transfer ends or after
    /// ``descriptorRetryInterval``, so a queue whose descriptors clients took starts again once
    /// they leave.
    func mayStartTransfer(besides opening: Int) -> Bool {
        let transfers = opening + 1
        if DescriptorReserve.hasRoom(forTransfers: transfers)
            || (connections.closeIdle() > 0 && DescriptorReserve.hasRoom(forTransfers: transfers)) {
            if isWaitingForDescriptors {
                isWaitingForDescriptors = false
                logger.notice("Downloads start again: file descriptors are free.")
            }
            return true
        }
        if !isWaitingForDescriptors {
            isWaitingForDescriptors = true
            let limit = DescriptorReserve.limit()
            logger.error(
                "Downloads wait for file descriptors: the service is near its limit of \(limit) and keeps "
                    + "\(DescriptorReserve.reserved(under: limit)) for its own work. They start as transfers end and clients "
                    + "disconnect; to run more at once, raise the limit (ulimit -n) before the service starts.")
        }
        if descriptorWait == nil {
            descriptorWait = activities.after(Self.descriptorRetryInterval, "descriptor wait") { [weak self] in
                await self?.descriptorWaitEnded()
            }
        }
        return false
    }

    /// The running transfers whose threads have not opened their descriptors yet.
    var transfersOpeningDescriptors: Int {
        running.values.count { !$0.control.hasOpenedDescriptors }
    }

    private func descriptorWaitEnded() {
        descriptorWait = nil
        pump()
    }
}
