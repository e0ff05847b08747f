/*
Abstract:
Tests that a foreground start answered before its row is inserted is seen by every request after it, and never lost silently.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Dispatch
import Foundation
import Testing
import TestSupport

@Suite("Foreground starts answered before their rows", .serialized, .timeLimit(.minutes(3)))
struct ForegroundStartInsertTests {
    private static let app = "com.example.foreground-starts"

    private static func download(_ identifier: String) -> DownloadDescriptor {
        DownloadDescriptor(
            identifier: identifier, uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:9/\(identifier).mp4",
            fileSize: 10, applicationGroupIdentifier: "group.\(app)")
    }

    /// Holds every write of the queue's store until `gate` is signalled; `entered` is signalled as each one waits.
    private static func holdWrites(of store: DownloadStore) -> (gate: DispatchSemaphore, entered: DispatchSemaphore) {
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        store.beforeWrite.withLock { $0 = { entered.signal(); gate.wait() } }
        return (gate, entered)
    }

    private static func identifiers(in response: ServerResponse) -> [String] {
        guard case let .downloads(downloads) = response else { return [] }
        return downloads.map(\.identifier)
    }

    @Test("A start is answered while the store is stuck; the app's next look at its downloads waits for the row and lists it")
    func answeredBeforeTheInsertAndSeenAfter() async throws {
        let device = try await InProcessService()
        let store = await device.service.queue.store
        let client = try await device.client(Self.app)
        let (gate, entered) = Self.holdWrites(of: store)

        // Answered although the insert cannot run: the answer does not wait for the queue's thread.
        guard case let .download(answered) = try await client.ask(.downloads(.startForeground(download: Self.download("first")))) else {
            Issue.record("the start was not answered while the store was stuck"); return
        }
        #expect(answered.state == .waiting)
        #expect(await signalled(entered), "the insert reached the store")

        // Asked while the insert is stuck, answered once it is in: never without the download.
        let listing = try client.post(.downloads(.fetchCurrentDownloads))
        store.beforeWrite.withLock { $0 = nil }
        gate.signal()
        #expect(Self.identifiers(in: try await client.answer(to: listing)) == ["first"])
        await device.stop()
    }

    @Test("A second start of a download whose row is still to come is answered as in the foreground, and one row is inserted")
    func startedAgainBeforeItsInsert() async throws {
        let device = try await InProcessService()
        let store = await device.service.queue.store
        let client = try await device.client(Self.app)
        let (gate, entered) = Self.holdWrites(of: store)
        let download = Self.download("twice")

        guard case .download = try await client.ask(.downloads(.startForeground(download: download))) else {
            Issue.record("the first start was not answered"); return
        }
        #expect(await signalled(entered), "the insert reached the store")
        guard case let .download(again) = try await client.ask(.downloads(.startForeground(download: download))) else {
            Issue.record("the second start was not answered while the first one's row was still to come"); return
        }
        #expect(again.identifier == "twice")

        store.beforeWrite.withLock { $0 = nil }
        gate.signal()
        #expect(Self.identifiers(in: try await client.ask(.downloads(.fetchCurrentDownloads))) == ["twice"])
        #expect(client.events.allSatisfy { if case .failed = $0 { false } else { true } }, "\(client.events)")
        await device.stop()
    }

    @Test("A start the store cannot record reaches the app's delegate as failedWithError, and the service answers on")
    func unrecordedStartFails() async throws {
        let device = try await InProcessService()
        let store = await device.service.queue.store
        let client = try await device.client(Self.app)
        guard case .done = try await client.ask(.downloads(.setDelegate(isSet: true))) else {
            Issue.record("the delegate was not set"); return
        }
        let (gate, entered) = Self.holdWrites(of: store)
        guard case .download = try await client.ask(.downloads(.startForeground(download: Self.download("lost")))) else {
            Issue.record("the start was not answered"); return
        }
        #expect(await signalled(entered), "the insert reached the store")
        // The disk goes away under the write, as a full or failed disk would take it.
        store.close()
        store.beforeWrite.withLock { $0 = nil }
        gate.signal()

        let events = try await client.event { if case let .failed(download, _) = $0 { download.identifier == "lost" } else { false } }
        let failure = events.compactMap { if case let .failed(_, failure) = $0 { failure } else { nil } }.first
        #expect(failure?.message.contains("Start the download again") == true, "\(String(describing: failure))")
        // The requests that waited for the insert are answered, not left hanging.
        _ = try await client.ask(.downloads(.fetchCurrentDownloads))
        await device.stop()
    }
}
