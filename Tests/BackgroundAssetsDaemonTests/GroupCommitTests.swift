/*
Abstract:
Tests for schedules committed before they are on disk: shared syncs, and answers held until the disk has them.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Schedules share syncs")
struct GroupCommitTests {
    /// Waits for every ticket and returns what each completion said, in ticket order.
    private func waitForDisk(_ store: DownloadStore, tickets: [Int]) async -> [Bool] {
        await withTaskGroup(of: (Int, Bool).self) { group in
            for (index, ticket) in tickets.enumerated() {
                group.addTask { (index, await store.durable(through: ticket)) }
            }
            var results = [Bool](repeating: false, count: tickets.count)
            for await (index, isDurable) in group { results[index] = isDurable }
            return results
        }
    }

    @Test("A deferred insert commits without a sync, and one sync makes a whole batch durable")
    func oneSyncForABatch() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let syncsBefore = store.writeAheadLogSyncs
        var tickets: [Int] = []
        for index in 0..<200 {
            _ = try store.insert([StoreFixture.download("d\(index)")], at: StoreFixture.epoch, durability: .answerWaits)
            tickets.append(try #require(store.unsyncedTicket))
        }
        #expect(store.writeAheadLogSyncs == syncsBefore, "a deferred insert does not sync itself")
        #expect(tickets == tickets.sorted() && Set(tickets).count == 200, "each insert gets a later ticket")
        #expect(try store.allDownloads().count == 200, "committed: the next request already sees them")

        #expect(await waitForDisk(store, tickets: tickets).allSatisfy { $0 })
        #expect(store.sharedSyncs >= 1 && store.sharedSyncs <= 2, "one sync covers every insert committed before it")
        #expect(store.unsyncedTicket == nil)
        #expect(try fixture.reopen().allDownloads().count == 200)
    }

    @Test("A change that syncs itself also covers the deferred ones before it")
    func ownSyncCoversDeferred() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        _ = try store.insert([StoreFixture.download("deferred")], at: StoreFixture.epoch, durability: .answerWaits)
        let ticket = try #require(store.unsyncedTicket)
        _ = try store.insert(StoreFixture.download("synced"), at: StoreFixture.epoch)
        #expect(store.unsyncedTicket == nil)
        #expect(await waitForDisk(store, tickets: [ticket]) == [true])
        #expect(store.sharedSyncs == 0, "nothing was left to sync")
    }

    @Test("An insert synced soon is committed with nothing to wait for, and reaches the disk by itself within the delay")
    func soonReachesTheDiskAlone() async throws {
        let fixture = try StoreFixture(soonSyncDelay: .milliseconds(50))
        let store = fixture.store
        let syncsBefore = store.writeAheadLogSyncs
        for index in 0..<20 {
            _ = try store.insert([StoreFixture.download("f\(index)", foreground: true)], at: StoreFixture.epoch, durability: .soon)
        }
        #expect(store.writeAheadLogSyncs == syncsBefore, "the insert does not sync itself")
        #expect(store.unsyncedTicket == nil, "no answer waits for it")
        #expect(try store.allDownloads().count == 20, "committed: the next request already sees them")
        try await poll(until: { store.unsyncedSoonTicket == nil }, "the inserts to reach the disk")
        #expect(store.sharedSyncs >= 1 && store.sharedSyncs <= 20, "synced by the syncer, \(store.sharedSyncs) time(s)")
    }

    @Test("An insert synced soon waits for its delay, unless a sync someone waits for takes it along first")
    func soonGoesWithTheNextAwaitedSync() async throws {
        let fixture = try StoreFixture(soonSyncDelay: .seconds(3_600))
        let store = fixture.store
        _ = try store.insert([StoreFixture.download("foreground", foreground: true)], at: StoreFixture.epoch, durability: .soon)
        let soon = try #require(store.unsyncedSoonTicket)
        _ = try store.insert([StoreFixture.download("scheduled")], at: StoreFixture.epoch, durability: .answerWaits)
        let ticket = try #require(store.unsyncedTicket)
        #expect(ticket > soon)
        #expect(await waitForDisk(store, tickets: [ticket]) == [true])
        #expect(store.unsyncedSoonTicket == nil, "the awaited sync covered the earlier insert")
        #expect(store.sharedSyncs == 1)
    }

    @Test("A change that syncs itself covers an insert synced soon, and the syncer then has nothing to do")
    func ownSyncCoversSoon() async throws {
        let fixture = try StoreFixture(soonSyncDelay: .milliseconds(50))
        let store = fixture.store
        _ = try store.insert([StoreFixture.download("foreground", foreground: true)], at: StoreFixture.epoch, durability: .soon)
        _ = try store.insert(StoreFixture.download("synced"), at: StoreFixture.epoch)
        #expect(store.unsyncedSoonTicket == nil)
        _ = try store.insert([StoreFixture.download("later")], at: StoreFixture.epoch, durability: .answerWaits)
        #expect(await waitForDisk(store, tickets: [try #require(store.unsyncedTicket)]) == [true])
        #expect(store.sharedSyncs == 1, "only the awaited one: the insert synced soon had nothing left to sync")
    }

    @Test("A store that closes fails what still waits for the disk")
    func closedStoreFails() async throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.insert([StoreFixture.download("a")], at: StoreFixture.epoch, durability: .answerWaits)
        let ticket = try #require(fixture.store.unsyncedTicket)
        fixture.store.close()
        #expect(await waitForDisk(fixture.store, tickets: [ticket]) == [false])
    }
}

@Suite("Answers held for the disk")
struct HeldAnswerTests {
    /// A connection over one end of a socket pair, and the other end to read what it sends.
    private func connectedPair() -> (ClientConnection, Int32) {
        // -1, not 0: should the call fail, closing these must not close descriptor 0, or whatever took its number.
        var pair: [Int32] = [-1, -1]
        _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair)
        let connection = ClientConnection(
            id: 1, socket: UnixSocket(descriptor: pair[0], path: "test"),
            peer: PeerCredentials(processIdentifier: 1, userIdentifier: getuid(), groupIdentifier: getgid()),
            wakeLoop: {})
        var flags = fcntl(pair[1], F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(pair[1], F_SETFL, flags)
        return (connection, pair[1])
    }

    /// The ids of the answers readable now, in order.
    private func answerIDs(from descriptor: Int32) throws -> [UInt64] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        var decoder = FrameDecoder(maximumFrameSize: WireProtocol.maximumFrameSize)
        decoder.append(bytes)
        var ids: [UInt64] = []
        while let frame = try decoder.nextFrame() {
            guard case let .response(id, _) = try MessageCodec.decode(ServerMessage.self, from: frame) else { continue }
            ids.append(id)
        }
        return ids
    }

    @Test("A held answer goes out once its ticket is on disk, and what follows waits behind it")
    func heldInOrder() throws {
        let (connection, peer) = connectedPair()
        defer { close(peer) }
        let answer = ServerResponse.done
        connection.send(.response(id: 1, response: answer))
        connection.send(.response(id: 2, response: answer), heldUntilDurable: 10)
        connection.send(.response(id: 3, response: answer))
        connection.send(.response(id: 4, response: answer), heldUntilDurable: 12)
        #expect(try answerIDs(from: peer) == [1])
        connection.releaseHeld(through: 9)
        #expect(try answerIDs(from: peer) == [])
        connection.releaseHeld(through: 11)
        #expect(try answerIDs(from: peer) == [2, 3])
        connection.releaseHeld(through: 12)
        connection.send(.response(id: 5, response: answer))
        #expect(try answerIDs(from: peer) == [4, 5])
    }
}
