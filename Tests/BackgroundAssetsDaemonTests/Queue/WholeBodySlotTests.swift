/*
Abstract:
Tests that a transfer whose body has ended gives its slot to the next download while it makes its file durable, never more of them at once than there are slots.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Slots of transfers past their bodies")
struct WholeBodySlotTests {
    @Test("A transfer past its last byte gives its slot to the next download; one more waits while the slotless ones are as many as the slots")
    func slotGoesToTheNextDownload() async throws {
        let body = Array(repeating: UInt8(5), count: 20_000)
        let server = try ScriptedHTTPServer { _, _ in .response("200 OK", [], body: body) }
        // The paths asked for, in order, from the heads the server received.
        let requested = { server.requests.map { $0.requestTarget ?? $0 } }
        let finishes = HeldFinishes()
        defer {
            finishes.releaseAll()
            server.stop()
        }
        // One slot, no small ones: one download receives at a time, and one more may finish without a slot.
        let harness = try QueueHarness {
            $0.maxConcurrentDownloads = 1
            $0.maxConcurrentSmallDownloads = 0
        }
        await harness.queue.observeBodies { row in HeldFinish(name: row.descriptor.identifier, finishes: finishes) }
        try await harness.queue.start()
        var ids: [String: Int64] = [:]
        for name in ["first", "second", "third"] {
            ids[name] = try await harness.schedule(server.url("/\(name).mov"), identifier: name, fileSize: body.count).id
        }
        let first = try #require(ids["first"]), second = try #require(ids["second"]), third = try #require(ids["third"])

        // The first one's end is held: the second one starts in its slot meanwhile.
        try await poll(until: { finishes.held.contains("first") && requested().contains("/second.mov") },
                       "the second download to start while the first one makes its file durable")
        #expect(await harness.queue.running[first]?.gaveUpSlot == true)
        #expect(await harness.queue.running[first]?.heldSlot == nil)

        // The second one's end is held too; with one transfer already finishing without a slot,
        // it keeps its own, and the third one waits, however often the queue looks.
        try await poll(until: { await harness.queue.running[second]?.hasWholeBody == true }, "the queue to hear the second body ended")
        await harness.queue.pump()
        #expect(await harness.queue.running[second]?.gaveUpSlot == false)
        #expect(await harness.queue.running[third] == nil)
        #expect(!requested().contains("/third.mov"), "the third download started with no slot free: \(requested())")

        // The first one ends: the second one gives up its slot, and the third one takes it.
        finishes.release("first")
        try await poll(until: { requested().contains("/third.mov") }, "the third download to start once the first one ended")
        #expect(await harness.queue.running[second]?.gaveUpSlot == true)

        finishes.releaseAll()
        for id in [first, second, third] {
            guard case .finished = try await harness.end(of: id) else { Issue.record("\(id) did not finish: \(harness.events)"); return }
        }
        #expect(requested() == ["/first.mov", "/second.mov", "/third.mov"], "each file fetched once, in order")
    }
}

/// Holds the end of each transfer's body (its observer's last checkpoint) until the test releases it.
private final class HeldFinishes: @unchecked Sendable {
    // `condition` guards the two vars below; hence the unchecked Sendable.
    private let condition = NSCondition()
    private var holding: Set<String> = []
    private var released: Set<String> = []
    private var isAllReleased = false

    /// The transfers whose ends are held now.
    var held: Set<String> { condition.withLock { holding } }

    /// Waits until `name` is released (two minutes at most, so a failing test ends).
    func hold(_ name: String) {
        condition.lock()
        defer { condition.unlock() }
        holding.insert(name)
        let deadline = Date(timeIntervalSinceNow: 120)
        while !isAllReleased, !released.contains(name), condition.wait(until: deadline) {}
        holding.remove(name)
    }

    func release(_ name: String) {
        condition.withLock {
            released.insert(name)
            condition.broadcast()
        }
    }

    func releaseAll() {
        condition.withLock {
            isAllReleased = true
            condition.broadcast()
        }
    }
}

/// An observer that leaves every byte to the staging file and holds the body's end.
private struct HeldFinish: TransferBodyObserver {
    let name: String
    let finishes: HeldFinishes

    func resumableOffset(upTo offset: Int64) -> Int64 { offset }
    func bodyBegan(at offset: Int64, partFile: Int32) {}
    func bodyArrived(_ bytes: UnsafeRawBufferPointer) throws(TransferError) -> Range<Int> { 0..<0 }
    func checkpoint(at length: Int64) -> (@Sendable () -> Void)? {
        { [name, finishes] in finishes.hold(name) }
    }
}
