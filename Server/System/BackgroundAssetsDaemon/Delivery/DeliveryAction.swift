/*
Abstract:
What the delivery of finished files asks the service to do: hold, offer, give to the extension, delete, fetch again.
*/

import Foundation

/// One thing to do, returned by ``DeliveryState``; the service does them in order.
enum DeliveryAction: Sendable, Equatable {
    /// Why a file's names are deleted.
    enum Release: Sendable, Equatable {
        /// A delegate it was offered to returned from its callback: the owner has it (moved or linked).
        case delivered
        /// Its app is not installed: nobody can ever own it.
        case noOwner
    }

    /// Keep the file for a delegate of its app expected to connect again: make sure its kept second
    /// name exists, so a kill before the delegate takes it leaves it for the next service.
    case hold(FinishedFile)
    /// Keep the file for the app's next delegate, however long that takes: the extension it was given
    /// to ended without taking it. Its kept second name is made as for ``hold(_:)``.
    case keepForApp(FinishedFile)
    /// Keep the file, listed to its app, while the app holds exclusive control with no delegate set;
    /// it goes out when the app lets go. Its kept second name is made as for ``hold(_:)``.
    case holdWhileAppHasControl(FinishedFile)
    /// Send `finishedWithFileURL` to these delegate connections under a delivery identifier; the
    /// delivery ends when they acknowledge it.
    case offer(id: UInt64, FinishedFile, to: Set<UInt64>)
    /// Launch the app's extension with the file (`backgroundDownload(_:finishedWithFileURL:)`); the
    /// extension host owns it from here, and deletes it when the call returns.
    case giveToExtension(FinishedFile)
    /// Delete the file and its kept name.
    case release(FinishedFile, Release)
    /// The file is gone before its owner had it: fetch the download again under the same row.
    case fetchAgain(FinishedFile)
    /// Deliver the held files at this time (``DeliveryState/reconnectGraceEnded(at:delegates:isInstalled:isPresent:)``).
    case armGraceTimer(at: Date)
}
