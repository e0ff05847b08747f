/*
Abstract:
Tests that status lists the queue a page at a time, every download exactly once, however large the queue.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Status pages", .timeLimit(.minutes(2)))
struct StatusPageTests {
    @Test("5,000 downloads come in pages, each exactly once, while downloads are added and removed between pages")
    func everyRowOnceAcrossPages() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let rows = try store.insert((0..<5_000).map { StoreFixture.download("d\($0)") }, at: StoreFixture.epoch)
        var listed: [String] = []
        var cursor: Int64 = 0
        var pages = 0
        var removed: Set<String> = []
        var added: [String] = []
        while true {
            let page = try store.statusPage(after: cursor)
            pages += 1
            #expect(page.downloads.count <= DownloadStore.statusPageSize)
            #expect(!page.downloads.isEmpty, "page \(pages) is empty")
            listed += page.downloads.map(\.download.identifier)
            guard let next = page.moreAfter else { break }
            #expect(next > cursor)
            cursor = next
            guard pages <= 4 else { continue }
            // Between pages the queue changes: a listed download and one still to come are removed,
            // and a new one is added at the end.
            for row in [rows[pages * 1_000 - 1], rows[pages * 1_000 + 500]] {
                try store.delete(id: row.id)
                removed.insert(row.descriptor.identifier)
            }
            added.append("new-\(pages)")
            _ = try store.insert(StoreFixture.download("new-\(pages)"), at: StoreFixture.epoch)
        }
        #expect(Set(listed).count == listed.count, "a download was listed twice")
        let throughout = Set(rows.map(\.descriptor.identifier)).subtracting(removed)
        #expect(throughout.isSubset(of: Set(listed)), "a download present throughout was left out")
        #expect(Set(added).isSubset(of: Set(listed)), "a download added between pages was left out")
        #expect(pages == (listed.count + 999) / 1_000, "full pages, and no empty one at the end")
    }

    @Test("A queue that fits one page has no cursor, and an empty queue one empty page")
    func smallQueues() throws {
        let fixture = try StoreFixture()
        #expect(try fixture.store.statusPage(after: 0) == DownloadStatusPage(downloads: [], moreAfter: nil))
        _ = try fixture.store.insert((0..<3).map { StoreFixture.download("d\($0)") }, at: StoreFixture.epoch)
        let page = try fixture.store.statusPage(after: 0, limit: 3)
        #expect(page.downloads.map(\.download.identifier) == ["d0", "d1", "d2"])
        #expect(page.moreAfter == nil, "no page follows the last row")
        let first = try fixture.store.statusPage(after: 0, limit: 2)
        #expect(first.moreAfter != nil)
        #expect(try fixture.store.statusPage(after: first.moreAfter ?? 0, limit: 2).downloads.map(\.download.identifier) == ["d2"])
    }
}

@Suite("Status pages through the service", .serialized, .timeLimit(.minutes(2)))
struct ServiceStatusPageTests {
    @Test("The tool reads 5,000 downloads from status and its pages, and the app lists them all as its current downloads")
    func fiveThousandDownloads() async throws {
        let device = try await InProcessService()
        let app = "com.example.status-pages"
        let identifiers = try await device.insertUnqueuedDownloads(5_000, of: app)

        let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
        guard case let .status(status) = try await tool.ask(.core(.fetchStatus)) else {
            Issue.record("fetchStatus was not answered with a status"); return
        }
        #expect(status.downloads.count == DownloadStore.statusPageSize)
        var listed = status.downloads.map(\.download.identifier)
        var cursor = status.moreDownloadsAfter
        while let after = cursor {
            guard case let .downloadStatuses(page) = try await tool.ask(.core(.fetchDownloadStatuses(after: after))) else {
                Issue.record("fetchDownloadStatuses was not answered with a page"); return
            }
            listed += page.downloads.map(\.download.identifier)
            cursor = page.moreAfter
        }
        #expect(listed == identifiers, "every download once, oldest first")

        let client = try await device.client(app)
        guard case let .downloads(current) = try await client.ask(.downloads(.fetchCurrentDownloads)) else {
            Issue.record("fetchCurrentDownloads was not answered with downloads"); return
        }
        #expect(current.count == identifiers.count)
        await device.stop()
    }
}
