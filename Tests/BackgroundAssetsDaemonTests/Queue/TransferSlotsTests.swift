/*
Abstract:
Which slot a due download takes: small downloads their own first, then the regular ones; foreground ones none.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Transfer slots")
struct TransferSlotsTests {
    private static func slots(regular: Int, small: Int, running: [TransferSlots.Slot] = []) -> TransferSlots {
        var configuration = ServiceConfiguration()
        configuration.maxConcurrentDownloads = regular
        configuration.maxConcurrentSmallDownloads = small
        return TransferSlots(configuration: configuration, running: running)
    }

    private static let small = 20_000
    private static let large = 8 << 20

    @Test("A small download takes a small slot first, then a regular one, then waits")
    func smallTakesItsOwnFirst() {
        var slots = Self.slots(regular: 1, small: 2)
        #expect(slots.backgroundRoom == 3)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == .small)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == .small)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == .regular)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == nil)
        #expect(slots.backgroundRoom == 0)
    }

    @Test("A large download takes only a regular slot")
    func largeTakesRegularOnly() {
        var slots = Self.slots(regular: 1, small: 4)
        #expect(slots.take(isForeground: false, declaredSize: Self.large) == .regular)
        #expect(slots.take(isForeground: false, declaredSize: Self.large) == nil)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == .small, "small slots stay free for small downloads")
    }

    @Test("Small means a declared size from 1 byte to 256 KiB; no declared size is not small")
    func smallBoundary() {
        let limit = TransferSlots.smallFileSize
        #expect(limit == 256 << 10)
        for (size, expected) in [(0, TransferSlots.Slot.regular), (1, .small), (limit, .small), (limit + 1, .regular), (-5, .regular)] {
            var slots = Self.slots(regular: 1, small: 1)
            #expect(slots.take(isForeground: false, declaredSize: size) == expected, "declared \(size) bytes")
        }
    }

    @Test("A foreground download takes no slot, whatever is free")
    func foregroundTakesNone() {
        var slots = Self.slots(regular: 1, small: 0, running: [.regular, .regular])
        #expect(slots.take(isForeground: true, declaredSize: Self.large) == .foreground)
        #expect(slots.take(isForeground: true, declaredSize: Self.small) == .foreground)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == nil)
    }

    @Test("Running transfers hold their slots; more running than allowed leaves no room")
    func runningTransfersCount() {
        var slots = Self.slots(regular: 2, small: 2, running: [.regular, .small, .foreground, .foreground])
        #expect(slots.backgroundRoom == 2)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == .small)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == .regular)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == nil)

        // A configuration lowered under what runs: nothing more starts, and the room is not negative.
        var crowded = Self.slots(regular: 1, small: 1, running: [.regular, .regular, .small, .small, .small])
        #expect(crowded.backgroundRoom == 0)
        #expect(crowded.take(isForeground: false, declaredSize: Self.small) == nil)
        #expect(crowded.take(isForeground: false, declaredSize: Self.large) == nil)
    }

    @Test("With no small slots, a small download takes a regular slot like any other")
    func noSmallSlots() {
        var slots = Self.slots(regular: 1, small: 0)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == .regular)
        #expect(slots.take(isForeground: false, declaredSize: Self.small) == nil)
    }

    @Test("The queue runs small downloads beside the regular slot, unpaced, never more than their own slots")
    func queueRunsSmallBesideRegular() async throws {
        let gate = RequestGate()
        let small = Array(repeating: UInt8(7), count: Self.small)
        let large = Array(repeating: UInt8(9), count: 300_000)
        let server = try ScriptedHTTPServer { head, _ in
            let isSmall = head.contains("/small-")
            gate.arrive(isSmall: isSmall)
            return .response("200 OK", [], body: isSmall ? small : large)
        }
        defer {
            gate.open()
            server.stop()
        }
        let harness = try QueueHarness {
            $0.maxConcurrentDownloads = 1
            $0.maxConcurrentSmallDownloads = 2
            $0.backgroundBandwidthLimit = 400_000
            // Held by the server for as long as a busy machine takes to start all three: no
            // attempt may end as stalled meanwhile, which would send its request again.
            $0.stallTimeout = 600
            $0.lowSpeedLimit = 0
        }
        try await harness.queue.start()
        var ids: [Int64] = []
        // The large ones first in the run order: the small ones start beside the one that runs.
        for index in 0..<2 {
            ids.append(try await harness.schedule(server.url("/large-\(index).mp4"), identifier: "large-\(index)", fileSize: large.count).id)
        }
        for index in 0..<4 {
            ids.append(try await harness.schedule(server.url("/small-\(index).mp4"), identifier: "small-\(index)", fileSize: small.count).id)
        }
        // Held by the server, every slot fills: one large download and two small ones.
        try await poll(until: { gate.waiting == (large: 1, small: 2) }, "one large and two small requests at once")
        // The one in the regular slot has the whole background share; the small ones are not paced.
        let paces = await harness.queue.running.values.map { ($0.slot, $0.control.bytesPerSecond) }
        #expect(paces.count == 3)
        for (slot, pace) in paces {
            #expect(pace == (slot == .regular ? 400_000 : nil), "\(slot): \(String(describing: pace))")
        }
        gate.open()
        for id in ids {
            guard case .finished = try await harness.end(of: id) else { Issue.record("\(id) did not finish: \(harness.events)"); return }
        }
        let peak = gate.peak
        #expect(peak.large == 1, "one regular slot: \(peak)")
        #expect(peak.small == 2, "two small slots: \(peak)")
    }
}

/// Holds each request until ``open()``, counting the requests held, and the most at once of each kind.
private final class RequestGate: @unchecked Sendable {
    // `condition` guards the three vars below; hence the unchecked Sendable.
    private let condition = NSCondition()
    private var isOpen = false
    private var held = (large: 0, small: 0)
    private var most = (large: 0, small: 0)

    var waiting: (large: Int, small: Int) { condition.withLock { held } }
    var peak: (large: Int, small: Int) { condition.withLock { most } }

    /// Counts the request, and holds it while the gate is shut (two minutes at most, so a failing test ends).
    /// The count drops before the answer is sent, so it never outlives the client's transfer.
    func arrive(isSmall: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if isSmall { held.small += 1 } else { held.large += 1 }
        most = (max(most.large, held.large), max(most.small, held.small))
        let deadline = Date(timeIntervalSinceNow: 120)
        while !isOpen, condition.wait(until: deadline) {}
        if isSmall { held.small -= 1 } else { held.large -= 1 }
    }

    func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }
}
