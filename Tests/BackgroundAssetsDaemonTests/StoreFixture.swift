/*
Abstract:
A queue in a temporary folder, and downloads to put in it.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport

/// A store in its own temporary folder; the folder goes away with the fixture.
final class StoreFixture: Sendable {
    let directory: TemporaryDirectory
    let url: URL
    let store: DownloadStore

    /// - Parameter soonSyncDelay: How long an insert of ``CommitDurability/soon`` may stay off the disk.
    init(soonSyncDelay: Duration = .seconds(1)) throws {
        directory = try TemporaryDirectory(prefix: "ba-store")
        url = directory.appending("system/queue.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        store = try DownloadStore(url: url, soonSyncDelay: soonSyncDelay)
    }

    /// Opens a second store on the same file, as a restarted service would.
    func reopen() throws -> DownloadStore {
        try DownloadStore(url: url)
    }

    static let app = "com.example.sessions"
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    static func download(
        _ identifier: String, app: String = app, essential: Bool = false, priority: Int = 0, foreground: Bool = false,
        uniqueIdentifier: String = UUID().uuidString
    ) -> NewDownload {
        NewDownload(
            bundleIdentifier: app,
            descriptor: DownloadDescriptor(
                identifier: identifier, uniqueIdentifier: uniqueIdentifier,
                url: "https://cdn.example.com/\(identifier)",
                fileSize: essential ? 100 : 0, applicationGroupIdentifier: "group.com.example.sessions",
                priority: priority, isEssential: essential),
            isForeground: foreground)
    }
}
