/*
Abstract:
Tests that an app's current downloads come a page at a time, each one once, however many there are.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Current downloads in pages", .timeLimit(.minutes(2)))
struct CurrentDownloadPagesTests {
    @Test("2,500 downloads come in pages, each once, without ended ones, other apps' or asset packs', while the queue changes")
    func everyRowOnceAcrossPages() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        // The app's downloads with another app's between them, and an ended one and an asset pack's archive
        // every hundred: none of those may be listed.
        var news: [NewDownload] = []
        for index in 0..<2_500 {
            news.append(StoreFixture.download("d\(index)"))
            if index % 100 == 0 {
                news.append(StoreFixture.download("other\(index)", app: "com.example.other"))
                var archive = StoreFixture.download("pack\(index)")
                archive.descriptor.kind = .assetPack
                news.append(archive)
                news.append(StoreFixture.download("ended\(index)"))
            }
        }
        let rows = try store.insert(news, at: StoreFixture.epoch)
        for row in rows where row.descriptor.identifier.hasPrefix("ended") {
            try store.update(id: row.id, at: StoreFixture.epoch) { $0.state = .finished }
        }
        let ours = rows.filter { $0.descriptor.identifier.hasPrefix("d") }

        var listed: [String] = []
        var cursor: Int64 = 0
        var pages = 0
        var removed: Set<String> = []
        while true {
            let (page, moreAfter) = try store.currentDownloadsPage(bundleIdentifier: StoreFixture.app, after: cursor)
            pages += 1
            #expect(page.count <= DownloadStore.currentDownloadsPageSize)
            #expect(!page.isEmpty, "page \(pages) is empty")
            listed += page.map(\.descriptor.identifier)
            guard let next = moreAfter else { break }
            #expect(next > cursor)
            cursor = next
            // Between pages a listed download and one still to come end.
            for row in [ours[pages * 1_000 - 1], ours[pages * 1_000 + 10]] {
                try store.update(id: row.id, at: StoreFixture.epoch) { $0.state = .failed }
                removed.insert(row.descriptor.identifier)
            }
        }
        #expect(Set(listed).count == listed.count, "a download was listed twice")
        #expect(listed.allSatisfy { $0.hasPrefix("d") }, "listed another app's, an ended or an asset pack's download")
        let throughout = Set(ours.map(\.descriptor.identifier)).subtracting(removed)
        #expect(throughout.isSubset(of: Set(listed)), "a download present throughout was left out")
        #expect(pages == 3)
    }

    @Test("A short list is one page without a cursor")
    func smallLists() throws {
        let fixture = try StoreFixture()
        #expect(try fixture.store.currentDownloadsPage(bundleIdentifier: StoreFixture.app, after: 0).moreAfter == nil)
        _ = try fixture.store.insert((0..<3).map { StoreFixture.download("d\($0)") }, at: StoreFixture.epoch)
        let whole = try fixture.store.currentDownloadsPage(bundleIdentifier: StoreFixture.app, after: 0, limit: 3)
        #expect(whole.rows.map(\.descriptor.identifier) == ["d0", "d1", "d2"])
        #expect(whole.moreAfter == nil, "no page follows the last row")
    }
}

@Suite("Current downloads in pages through the service", .serialized, .timeLimit(.minutes(2)))
struct ServiceCurrentDownloadPagesTests {
    @Test("An app reads 5,000 current downloads in pages of 1,000, oldest first")
    func fiveThousandDownloads() async throws {
        let device = try await InProcessService()
        let app = "com.example.current-pages"
        let identifiers = try await device.insertUnqueuedDownloads(5_000, of: app)

        let client = try await device.client(app)
        var listed: [String] = []
        var cursor: Int64? = 0
        var pages = 0
        while let after = cursor {
            guard case let .currentDownloadsPage(page) = try await client.ask(.downloads(.fetchCurrentDownloadsPage(after: after))) else {
                Issue.record("fetchCurrentDownloadsPage was not answered with a page"); return
            }
            pages += 1
            listed += page.downloads.map(\.identifier)
            cursor = page.moreAfter
        }
        #expect(listed == identifiers, "every download once, oldest first")
        #expect(pages == 5)
        await device.stop()
    }

    @Test("An answer larger than a frame becomes a failure that names the limit and the paged requests")
    func oversizedAnswer() throws {
        let download = DownloadDescriptor(
            identifier: "d", uniqueIdentifier: "u", url: "https://example.com/" + String(repeating: "x", count: 1_000),
            applicationGroupIdentifier: "group.com.example")
        let count = WireProtocol.maximumFrameSize / 1_000 + 1
        let frame = try ClientConnection.frame(.response(id: 3, response: .downloads(Array(repeating: download, count: count))))
        #expect(frame.count < 4_096)
        guard case let .response(id, .failure(failure)) = try MessageCodec.decode(ServerMessage.self, from: Array(frame.dropFirst(4))) else {
            Issue.record("the oversized answer was not turned into a failure"); return
        }
        #expect(id == 3)
        #expect(failure.message.contains("WireProtocol.maximumFrameSize") && failure.message.contains("fetchCurrentDownloadsPage"), "\(failure.message)")
    }
}
