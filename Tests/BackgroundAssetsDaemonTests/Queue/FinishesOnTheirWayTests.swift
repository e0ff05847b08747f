/*
Abstract:
A download's finish is on its way from before its row says finished until the service routes it, and fetchCurrentDownloads lists it then.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Finishes on their way to the service")
struct FinishesOnTheirWayTests {
    @Test("A finish is on its way from before its row says finished, and stays so until it is routed")
    func fromBeforeTheCommit() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let harness = try QueueHarness()
        // At each write of the queue: whether the download was then on its way, and its stored state.
        let writes = Mutex<[(onItsWay: Bool, state: DownloadDescriptor.State?)]>([])
        let watched = Mutex<Int64?>(nil)
        harness.store.beforeWrite.withLock { hook in
            hook = { [queue = harness.queue, store = harness.store] in
                guard let id = watched.withLock({ $0 }) else { return }
                let state = try? store.withLookupConnection { try DownloadStore.fetchRow(id: id, in: $0)?.state }
                writes.withLock { $0.append((queue.finishesOnTheirWay.all.contains(id), state ?? nil)) }
            }
        }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: HTTPTransferTests.file.count)
        watched.withLock { $0 = row.id }
        guard case .finished = try await harness.end(of: row.id) else {
            Issue.record("The download failed: \(harness.events)"); return
        }
        // The write that marked it finished found it on its way already (the hook runs before the
        // write, so the row was not finished yet), and no write saw it finished and not on its way.
        let seen = writes.withLock { $0 }
        #expect(seen.last?.onItsWay == true, "\(seen)")
        #expect(!seen.contains { $0.state == .finished && !$0.onItsWay }, "\(seen)")
        #expect(harness.queue.finishesOnTheirWay.all == [row.id], "nothing has routed it yet")
        #expect(try harness.store.download(id: row.id)?.state == .finished)

        harness.queue.finishesOnTheirWay.remove(row.id)
        #expect(harness.queue.finishesOnTheirWay.all.isEmpty)
    }

    @Test("fetchCurrentDownloads lists a download whose finish is on its way, finished, and only the app's own")
    func listedWhileOnItsWay() async throws {
        try await InProcessService.with { device in
            let service = device.service
            let queue = await service.queue
            let store = await queue.store
            let app = "com.example.in-process"
            func finishedRow(of bundleIdentifier: String) throws -> DownloadRow {
                // Nothing listens at this URL, and the row is finished before the queue could start it.
                let descriptor = DownloadDescriptor(
                    identifier: "wwdc23-10108", uniqueIdentifier: UUID.random().uuidString, url: "http://127.0.0.1:9/a.mp4",
                    fileSize: 4, applicationGroupIdentifier: "group.\(bundleIdentifier)")
                let row = try store.insert(NewDownload(bundleIdentifier: bundleIdentifier, descriptor: descriptor), at: .now)
                return try store.update(id: row.id, at: .now) { $0.state = .finished }
            }
            let mine = try finishedRow(of: app)
            let others = try finishedRow(of: "com.example.other")
            #expect(try await service.currentDownloads(of: app, for: .app).isEmpty, "a finish routed already has ended")

            queue.finishesOnTheirWay.add(mine.id)
            queue.finishesOnTheirWay.add(others.id)
            let listed = try await service.currentDownloads(of: app, for: .app)
            #expect(listed.map(\.id) == [mine.id])
            #expect(listed.map(\.state) == [.finished])
            let page = try await service.currentDownloadsPage(of: app, for: .app, after: 0)
            #expect(page.downloads.map(\.uniqueIdentifier) == [mine.descriptor.uniqueIdentifier])
            #expect(page.downloads.map(\.state) == [.finished])

            queue.finishesOnTheirWay.remove(mine.id)
            #expect(try await service.currentDownloads(of: app, for: .app).isEmpty)
        }
    }
}
