/*
Abstract:
Tests that status shows a download's secrets redacted, while the queue keeps them to fetch the file.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Status redacts secrets")
struct DownloadStatusRedactionTests {
    @Test("Credentials in headers and tokens in the URL read <redacted> in status; the stored row keeps them")
    func statusIsRedacted() throws {
        let fixture = try StoreFixture()
        var download = StoreFixture.download("wwdc23-10108")
        download.descriptor.url = "https://cdn.example.com/a.mp4?token=s3cret&size=1"
        download.descriptor.headers = ["Authorization": "Bearer s3cret", "Accept-Language": "en"]
        let row = try fixture.store.insert([download], at: StoreFixture.epoch)[0]
        let status = row.status.download
        #expect(status.headers == ["Authorization": "<redacted>", "Accept-Language": "en"])
        #expect(status.url == "https://cdn.example.com/a.mp4?token=<redacted>&size=1")
        let stored = try #require(try fixture.store.download(id: row.id))
        #expect(stored.descriptor.headers["Authorization"] == "Bearer s3cret", "the transfer still needs it")
    }
}
