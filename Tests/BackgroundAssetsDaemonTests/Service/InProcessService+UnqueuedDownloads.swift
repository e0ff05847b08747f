/*
Abstract:
Many downloads written straight into an in-process service's store, for tests of long lists.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation

extension InProcessService {
    /// Writes `count` downloads of `app`, named `d0`, `d1`, …, straight into the store. The queue is
    /// not told, so nothing is tried (port 9 refuses anyway): they stay listed, as long lists are.
    /// - Returns: Their identifiers, oldest first.
    @discardableResult
    func insertUnqueuedDownloads(_ count: Int, of app: String) async throws -> [String] {
        let store = await service.queue.store
        let identifiers = (0..<count).map { "d\($0)" }
        _ = try store.insert(identifiers.map { identifier in
            NewDownload(bundleIdentifier: app, descriptor: DownloadDescriptor(
                identifier: identifier, uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:9/\(identifier)",
                applicationGroupIdentifier: "group.\(app)"))
        }, at: Date())
        return identifiers
    }
}
