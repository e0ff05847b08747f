/*
Abstract:
The downloads whose end is recorded, or about to be, and not yet routed to whoever receives their file.
*/

import Synchronization

/// The finishes between the queue and the service: a download here is finished in the store (or
/// about to be) while the service has not yet routed its `.finished` event.
///
/// The invariant: from just before a download's row says finished until the service has routed
/// that event (registered the file's delivery to the app's delegate, the extension, the install),
/// the row is here. `fetchCurrentDownloads` lists these rows with the files being handed over, so
/// an app that lists its downloads in between sees the download finished rather than in neither
/// list, and does not start it again (Apple's sample would: it starts every session whose file is
/// missing and whose download is not listed).
public final class FinishesOnTheirWay: Sendable {
    private let rows = Mutex<Set<Int64>>([])

    init() {}

    /// Adds a download before its end is committed.
    func add(_ id: Int64) {
        _ = rows.withLock { $0.insert(id) }
    }

    /// Removes a download once its `.finished` event was routed, or its end could not be recorded.
    public func remove(_ id: Int64) {
        _ = rows.withLock { $0.remove(id) }
    }

    /// The downloads whose finish is on its way, of every app.
    public var all: Set<Int64> {
        rows.withLock { $0 }
    }
}
