/*
Abstract:
Tests of waiting for an unreachable origin: one download probes it, the others park, and the cost stays flat.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Connectivity waits", .timeLimit(.minutes(3)))
struct ConnectivityWaitsTests {
    static let refused = WireFailure(domain: "NSURLErrorDomain", code: -1004, message: "connection refused")

    @Test("The first download of an origin to fail probes it; the others park, and a removed probe hands over")
    func probeAndParked() {
        var waits = ConnectivityWaits()
        let origin = "http://127.0.0.1:9"
        #expect(Self.decide(&waits, 1, origin) == .probe)
        #expect(Self.decide(&waits, 2, origin) == .park)
        #expect(waits.park(id: 3, origin: origin) == Self.refused)
        // The probe failing again stays the probe.
        #expect(Self.decide(&waits, 1, origin) == .probe)
        #expect(waits.park(id: 1, origin: origin) == nil, "the probe must never park behind itself")
        #expect(waits.parkedCount == 2)

        #expect(waits.forget(1) == 2, "the lowest parked download probes next")
        #expect(waits.probe(of: origin) == 2)
        #expect(waits.reached(origin) == [3])
        #expect(waits.origins.isEmpty)
        #expect(waits.forget(2) == nil)
    }

    /// The decision for a refused download of `origin`, which hands no probe over.
    static func decide(_ waits: inout ConnectivityWaits, _ id: Int64, _ origin: String) -> ConnectivityWaits.Decision? {
        let (decision, newProbe) = waits.connectionFailed(id: id, origin: origin, error: refused)
        return newProbe == nil ? decision : nil
    }

    /// Whether the queue's only timer is the probe's wake-up, `interval` seconds ahead.
    static func probeWakeUpOnly(_ interval: Double) -> @Sendable ([Duration]) -> Bool {
        { $0.count == 1 && $0[0] > .seconds(interval - 0.1) && $0[0] <= .seconds(interval + 0.1) }
    }

    @Test("Origins are scheme, host and port, with the default port filled in")
    func origins() {
        #expect(ConnectivityWaits.origin(of: "HTTP://CDN.example.com/a.mp4") == "http://cdn.example.com:80")
        #expect(ConnectivityWaits.origin(of: "https://cdn.example.com:8443/b") == "https://cdn.example.com:8443")
        #expect(ConnectivityWaits.origin(of: "not a url") == nil)
    }

    /// How many of `ids` wait as their origin's probe (due at a real time), and how many are parked.
    static func probesAndParked(_ store: DownloadStore, _ ids: [Int64]) throws -> [Int] {
        let rows = try ids.compactMap { try store.download(id: $0) }
        let parked = rows.filter { $0.state == .waiting && $0.nextAttemptAt == DownloadStore.parkedUntilReachable }
        let probes = rows.filter {
            $0.state == .waiting && $0.nextAttemptAt < DownloadStore.parkedUntilReachable && $0.lastError != nil
        }
        return [probes.count, parked.count]
    }

    @Test("40 downloads to an unreachable origin make one attempt per probe interval, with one timer, and all run once it answers")
    func flatCostForAnUnreachableOrigin() async throws {
        let count = 40
        let interval = 5.0
        var nobody: RefusingPort? = try RefusingPort()
        let port = try #require(nobody?.port)
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.connectivityProbeInterval = interval
            $0.maxConcurrentDownloads = 4
        }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        var ids: [Int64] = []
        for index in 0..<count {
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/file-\(index).bin"))
            ids.append(try await harness.schedule(url, identifier: "file-\(index)", fileSize: HTTPTransferTests.file.count).id)
        }
        let began = { harness.events.filter { if case .began = $0 { true } else { false } }.count }
        try await poll(until: { try Self.probesAndParked(harness.store, ids) == [1, count - 1] },
                       "one probe and \(count - 1) parked downloads; began \(began())")
        // Only the attempts in flight before the first refusal was known: at most one per slot.
        #expect(began() <= 4)
        // status shows the parked ones waiting for their host, not the far-future date that parks them.
        let statuses = try ids.compactMap { try harness.store.download(id: $0)?.status }
        #expect(statuses.count { $0.waitsUntilReachable == true && $0.nextAttemptAt == nil } == count - 1)
        #expect(statuses.count { $0.waitsUntilReachable == nil && $0.nextAttemptAt != nil } == 1)
        // One wake-up for the probe, none per download.
        try await harness.waitForTimers("the probe's wake-up alone", until: Self.probeWakeUpOnly(interval))

        for round in 1...3 {
            let before = began()
            let paused = harness.events.count { if case .paused = $0 { true } else { false } }
            clock.advance(by: .seconds(interval) + .milliseconds(1))
            try await poll(until: { harness.events.count { if case .paused = $0 { true } else { false } } > paused },
                           "the probe of round \(round) to fail")
            try await harness.waitForTimers("the next probe's wake-up", until: Self.probeWakeUpOnly(interval))
            #expect(began() == before + 1, "round \(round): one attempt, not one per waiting download")
            #expect(try Self.probesAndParked(harness.store, ids) == [1, count - 1])
        }

        // The origin answers: the probe's attempt reaches it and every parked download runs.
        // The server listens on the refusing port's own socket, which no other socket can share.
        let server = try ScriptedHTTPServer(takingOver: try #require(nobody), script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        nobody = nil
        clock.advance(by: .seconds(interval) + .milliseconds(1))
        try await poll(until: { ids.allSatisfy(harness.hasEnded) }, "every download to end")
        #expect(ids.allSatisfy { harness.eventNames(of: $0).last == "finished" })
    }

    @Test("When the probe's row is removed behind the queue (an uninstall), a parked download probes instead")
    func removedProbeHandsOver() async throws {
        let nobody = try RefusingPort()
        defer { withExtendedLifetime(nobody) {} }
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.connectivityProbeInterval = 5
            $0.maxConcurrentDownloads = 1
        }
        try await harness.queue.start()
        var ids: [Int64] = []
        for index in 0..<3 {
            let url = try #require(URL(string: "http://127.0.0.1:\(nobody.port)/file-\(index).bin"))
            ids.append(try await harness.schedule(url, identifier: "file-\(index)", fileSize: 1).id)
        }
        try await poll(until: { try Self.probesAndParked(harness.store, ids) == [1, 2] },
                       "one probe and two parked downloads")
        let probe = try #require(try ids.first { id in
            try harness.store.download(id: id)?.nextAttemptAt != DownloadStore.parkedUntilReachable
        })
        _ = try await harness.queue.withStore { try $0.delete(id: probe) }
        let rest = ids.filter { $0 != probe }
        // The new probe is tried at once, refused, and waits for the next interval; the other stays parked.
        try await poll(until: { try Self.probesAndParked(harness.store, rest) == [1, 1] },
                       "a parked download to take over the probe")
    }

    @Test("A restart makes every parked download due again, since which origin was unreachable is not kept")
    func restartUnparks() throws {
        let fixture = try StoreFixture()
        let rows = try fixture.store.insert((0..<3).map { StoreFixture.download("d\($0)") }, at: StoreFixture.epoch)
        for row in rows.dropFirst() { try fixture.store.park(id: row.id, reason: Self.refused, at: StoreFixture.epoch) }
        let later = StoreFixture.epoch.addingTimeInterval(60)
        // Parked rows are never due, and the queue's next wake-up is the unparked one's.
        #expect(try fixture.store.nextDownloadsToRun(limit: 10, at: later).map(\.id) == [rows[0].id])
        let next = try #require(try fixture.store.earliestNextAttempt())
        #expect(abs(next.timeIntervalSince(rows[0].nextAttemptAt)) < 0.002)
        #expect(try fixture.store.download(id: rows[1].id)?.lastError == Self.refused)

        let reopened = try fixture.reopen()
        #expect(try reopened.unpark(at: later) == 2)
        #expect(try reopened.nextDownloadsToRun(limit: 10, at: later).map(\.id) == rows.map(\.id))
    }
}

extension ConnectivityWaitsTests {
    @Test("Downloads scheduled while their origin is known unreachable start parked: no attempt, one row write each, no timer of their own")
    func scheduledWhileUnreachableStartParked() async throws {
        let interval = 5.0
        let nobody = try RefusingPort()
        defer { withExtendedLifetime(nobody) {} }
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.connectivityProbeInterval = interval
            $0.maxConcurrentDownloads = 4
        }
        try await harness.queue.start()
        let url = { (index: Int) in URL(string: "http://127.0.0.1:\(nobody.port)/file-\(index).bin") }
        let probe = try await harness.schedule(try #require(url(0)), identifier: "file-0", fileSize: 1).id
        try await poll(until: { try Self.probesAndParked(harness.store, [probe]) == [1, 0] },
                       "the first download to be refused and probe its origin")
        let began = harness.events.count { if case .began = $0 { true } else { false } }
        let writes = harness.store.rowWrites

        let count = 60
        var ids: [Int64] = []
        for index in 1...count {
            ids.append(try await harness.schedule(try #require(url(index)), identifier: "file-\(index)", fileSize: 1).id)
        }
        // Parked as they are inserted, with the probe's error as their reason: none is tried.
        #expect(try Self.probesAndParked(harness.store, ids) == [0, count])
        #expect(try ids.allSatisfy { try harness.store.download(id: $0)?.lastError?.code == -1004 })
        #expect(harness.events.count { if case .began = $0 { true } else { false } } == began)
        #expect(harness.store.rowWrites - writes == count, "one row write per schedule, none to park it afterwards")
        try await harness.waitForTimers("the probe's wake-up alone", until: Self.probeWakeUpOnly(interval))
    }
}
