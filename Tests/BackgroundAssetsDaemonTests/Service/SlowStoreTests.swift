/*
Abstract:
Tests that a store stuck in a write does not hold up the service's answers that only read it.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Dispatch
import Foundation
import Testing
import TestSupport

@Suite("A slow store", .serialized, .timeLimit(.minutes(3)))
struct SlowStoreTests {
    @Test("While the queue's store is stuck in a write, status and current downloads are answered from the last commit")
    func readsDoNotWaitForWrites() async throws {
        let device = try await InProcessService()
        let store = await device.service.queue.store
        let app = try await device.client("com.example.slow-store")
        let descriptor = DownloadDescriptor(
            identifier: "stuck", uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:9/stuck.mp4",
            fileSize: 10, applicationGroupIdentifier: "group.com.example.slow-store")
        // Every write now waits for the gate: the disk has stopped answering.
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        store.beforeWrite.withLock { $0 = { entered.signal(); gate.wait() } }
        let schedule = try app.post(.downloads(.schedule(download: descriptor)))
        #expect(await signalled(entered), "the schedule reached the store")

        // Another client's questions are answered while the write is stuck (its reads would time
        // out and fail the test if they waited for it: the write stays stuck until the gate opens).
        let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
        guard case let .status(status) = try await tool.ask(.core(.fetchStatus)) else {
            Issue.record("status was not answered while a write was stuck"); return
        }
        #expect(status.downloads.isEmpty, "the stuck schedule is not committed yet")
        guard case .downloads = try await tool.ask(.downloads(.fetchCurrentDownloads)) else {
            Issue.record("current downloads were not answered while a write was stuck"); return
        }

        store.beforeWrite.withLock { $0 = nil }
        gate.signal()
        guard case .download = try await app.answer(to: schedule) else {
            Issue.record("the schedule did not complete once the store answered"); return
        }
        guard case let .status(after) = try await tool.ask(.core(.fetchStatus)) else { Issue.record("no status"); return }
        #expect(after.downloads.map(\.download.identifier) == ["stuck"])
        await device.stop()
    }
}
