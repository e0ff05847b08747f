/*
Abstract:
The calls waiting for one app's extension, first in first out, each taken in constant time.
*/

/// The calls queued for an extension, in the order they are sent.
///
/// An install can queue tens of thousands at once (a failed download for each returned download the
/// allowance refused), and the host sends them one at a time: taking the first must not move all the
/// others, as `Array.removeFirst()` does, or the install's time grows with the square of its downloads.
struct ExtensionCallQueue: Sendable, Equatable {
    private var records: [ExtensionCallRecord]
    /// The position of the next call to send; the calls before it were taken.
    private var head = 0
    /// How many of the calls waiting hand the extension a finished file: asked after every batch of
    /// the lifecycle's actions, so it is kept rather than counted among tens of thousands of notices.
    private(set) var deliveryCount: Int

    /// A queue of `records`, the first to be sent first.
    init(_ records: [ExtensionCallRecord] = []) {
        self.records = records
        deliveryCount = records.count { $0.isDelivery }
    }

    /// Whether no call waits.
    var isEmpty: Bool { head == records.count }

    /// How many calls wait.
    var count: Int { records.count - head }

    /// The call to be sent next, if any.
    var first: ExtensionCallRecord? { head < records.count ? records[head] : nil }

    /// The calls waiting, in the order they will be sent.
    var waiting: ArraySlice<ExtensionCallRecord> { records[head...] }

    /// Adds calls after the ones waiting.
    mutating func append(contentsOf new: [ExtensionCallRecord]) {
        records.append(contentsOf: new)
        deliveryCount += new.count { $0.isDelivery }
    }

    /// Removes and returns the first call waiting, or `nil` when none does.
    mutating func popFirst() -> ExtensionCallRecord? {
        guard head < records.count else { return nil }
        let record = records[head]
        head += 1
        if record.isDelivery { deliveryCount -= 1 }
        // The taken calls' storage is given back once they are half of it: each call is moved at most
        // once more, so taking stays constant time on average.
        if head >= 64, head * 2 >= records.count {
            records.removeFirst(head)
            head = 0
        }
        return record
    }

    /// Removes the calls that match, keeping the order of the others.
    /// - Returns: The calls removed, in their order.
    mutating func removeAll(where matches: (ExtensionCallRecord) -> Bool) -> [ExtensionCallRecord] {
        let removed = waiting.filter(matches)
        guard !removed.isEmpty else { return [] }
        records = waiting.filter { !matches($0) }
        head = 0
        deliveryCount = records.count { $0.isDelivery }
        return removed
    }
}
