/*
Abstract:
Giving the slot of a transfer whose body has ended to the next download while the transfer makes its file durable.
*/

import Foundation

extension DownloadQueue {
    /// The most transfers that make their files durable without a slot at once: as many as
    /// there are background slots, so at most twice as many background files are open as slots.
    var slotlessFinishRoom: Int { configuration.maxConcurrentDownloads + configuration.maxConcurrentSmallDownloads }

    /// A transfer's body ended: every byte arrived, and its connection is back in the pool.
    ///
    /// What is left of it is disk work: the sync of its file (a small file's in a shared group),
    /// or a pack archive's files and saved state. That takes as long as receiving a pack of 5 MiB
    /// does, so a transfer that kept its slot through it left the network idle for as long.
    func bodyEnded(id: Int64, control: TransferControl) {
        guard running[id]?.control === control else { return }
        running[id]?.hasWholeBody = true
        rebalanceBandwidth()
        if releaseSlotsOfWholeBodies() { pumpAfterThisJob() }
    }

    /// Gives up the slots of transfers whose bodies ended, while fewer than ``slotlessFinishRoom``
    /// run without one; the others keep theirs until a transfer without a slot ends, when the next
    /// pump gives theirs up.
    ///
    /// The invariant (with ``TransferSlots``): the background transfers receiving bytes never
    /// outnumber the slots, and those making their files durable without a slot never outnumber
    /// ``slotlessFinishRoom``. A transfer gives up its slot at most once and never takes it back:
    /// it has no byte left to receive.
    /// - Returns: Whether a slot was given up, so a pump may start a download in it.
    @discardableResult
    func releaseSlotsOfWholeBodies() -> Bool {
        let room = slotlessFinishRoom - running.values.count(where: \.gaveUpSlot)
        guard room > 0 else { return false }
        // Oldest first, so the order they give up their slots in is the order they started in.
        let holding = running.filter { $0.value.hasWholeBody && !$0.value.gaveUpSlot && !$0.value.isForeground }.keys.sorted()
        for id in holding.prefix(room) { running[id]?.gaveUpSlot = true }
        return !holding.isEmpty
    }
}
