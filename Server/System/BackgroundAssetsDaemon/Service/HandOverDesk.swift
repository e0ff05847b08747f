/*
Abstract:
What the service has handed to an app's delegates and waits on: finished files and authentication challenges.
*/

import Foundation

/// Tracks every hand-over in flight: a finished file sent to an app's delegates until each of
/// them has returned from its callback, a challenge until one delegate answers it, and the files
/// an earlier run of the service handed over that nobody took.
///
/// It decides, and the service acts: when the last delegate of a file acknowledges it, the file's
/// name is deleted (a delegate that wanted it has moved or linked it); when every delegate went
/// away before returning, the file goes to the extension instead, as if no delegate had been there.
struct HandOverDesk {
    /// A finished file waiting for the delegates it was sent to.
    struct Delivery: Equatable {
        var file: URL
        /// The finished download's row, listed by `fetchCurrentDownloads` until the hand-over ends.
        var rowID: Int64
        var app: String
        /// The connections whose callback has not returned yet.
        var pending: Set<UInt64>
        /// Whether a delegate's callback returned; until one does, the file's fate is undecided.
        var isAcknowledged = false
    }

    /// What becomes of a delivery nobody is left to acknowledge.
    enum Ending: Equatable {
        /// A delegate took it: delete the handed-over name.
        case delivered(Delivery)
        /// Every delegate went away before returning: hand the file to the extension.
        case orphaned(Delivery)
    }

    private var deliveries: [UInt64: Delivery] = [:]
    private var challenges: [UInt64: Int64] = [:]
    private var undelivered = UndeliveredFiles()

    /// Records a file sent to some connections under a delivery identifier.
    mutating func offer(_ id: UInt64, file: URL, rowID: Int64, app: String, to connections: Set<UInt64>) {
        deliveries[id] = Delivery(file: file, rowID: rowID, app: app, pending: connections)
    }

    /// The delivery with this identifier, if it is still waiting.
    func delivery(_ id: UInt64) -> Delivery? {
        deliveries[id]
    }

    /// Ends a delivery whatever its state; the caller does what is left with its file.
    mutating func remove(_ id: UInt64) -> Delivery? {
        deliveries.removeValue(forKey: id)
    }

    /// Records that a connection's callback returned.
    /// - Returns: The delivery, removed, once no connection is left to return.
    mutating func acknowledge(_ id: UInt64, from connection: UInt64) -> Delivery? {
        guard var delivery = deliveries[id] else { return nil }
        delivery.pending.remove(connection)
        delivery.isAcknowledged = true
        deliveries[id] = delivery
        return delivery.pending.isEmpty ? deliveries.removeValue(forKey: id) : nil
    }

    /// Forgets a connection that closed: the deliveries it was the last to owe end.
    /// - Returns: Each ended delivery with its identifier: delivered, or orphaned when no delegate
    ///   returned. Orphaned ones stay recorded until the caller removes them, so their rows keep
    ///   being listed while the file goes to the extension.
    mutating func connectionClosed(_ connection: UInt64) -> [(id: UInt64, ending: Ending)] {
        var ended: [(id: UInt64, ending: Ending)] = []
        for (id, var delivery) in deliveries.sorted(by: { $0.key < $1.key }) where delivery.pending.contains(connection) {
            delivery.pending.remove(connection)
            deliveries[id] = delivery
            guard delivery.pending.isEmpty else { continue }
            if delivery.isAcknowledged {
                deliveries[id] = nil
                ended.append((id, .delivered(delivery)))
            } else {
                ended.append((id, .orphaned(delivery)))
            }
        }
        return ended
    }

    /// Records a challenge sent to an app's delegates.
    mutating func ask(_ id: UInt64, rowID: Int64) {
        challenges[id] = rowID
    }

    /// Takes the challenge's download once, for the first answer; `nil` for a later one.
    mutating func answer(_ id: UInt64) -> Int64? {
        challenges.removeValue(forKey: id)
    }

    /// Keeps the files an earlier run of the service left behind.
    mutating func keepUndelivered(_ files: UndeliveredFiles) {
        undelivered = files
    }

    /// Holds one finished file for its app's delegate, which is expected to connect again shortly.
    mutating func holdUndelivered(_ file: UndeliveredFiles.File, app: String) {
        undelivered.add(file, app: app)
    }

    /// Whether files from an earlier run wait to be handed over again.
    var hasUndelivered: Bool { !undelivered.isEmpty }

    /// Removes and returns the files from an earlier run waiting for one app, or for every app.
    mutating func takeUndelivered(app: String?) -> [UndeliveredFiles.File] {
        app.map { undelivered.take(app: $0) } ?? undelivered.takeAll()
    }

    /// The rows of an app whose files are being handed over to its delegates, or wait for one.
    func rowsBeingHandedOver(app: String) -> Set<Int64> {
        Set(deliveries.values.filter { $0.app == app }.map(\.rowID)).union(undelivered.rowIDs(of: app))
    }
}
