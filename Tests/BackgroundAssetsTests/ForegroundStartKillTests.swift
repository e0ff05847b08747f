/*
Abstract:
End-to-end: no foreground start the framework returned from is lost to a kill -9 of the service right after it.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceClient
import TestSupport
import Testing

@Suite("Foreground starts across a kill of the service", .serialized, .timeLimit(.minutes(3)))
struct ForegroundStartKillTests {
    @Test("Every start answered before a kill -9 is in the restarted service's queue, sent again by the framework")
    func noStartLostToAKill() async throws {
        let root = try TemporaryDirectory(prefix: "foreground-kill")
        let count = 200
        let configuration: [String: Double] = ["idleExitAfter": 600, "stallTimeout": 600, "foregroundWait": 600]
        // A server that never answers in time keeps the downloads queued, so the queue is what is checked.
        try await withAssetServer(arguments: ["--latency", "600000"]) { server in
            let manager = BADownloadManager(
                paths: DevicePaths(root: root.url),
                identity: ProcessIdentity(bundleIdentifier: "com.example.foreground-kill", role: .app), launcher: nil)
            let delegate = BADownloadManagerCallbackTests.RecordingDelegate()
            let downloads = (0..<count).map { index in
                BAURLDownload(
                    identifier: "session-\(index)", request: URLRequest(url: server.url("/never/\(index).mp4")),
                    essential: false, fileSize: 0, applicationGroupIdentifier: "group.com.example.foreground-kill",
                    priority: .default)
            }
            try await withService(deviceRoot: root.url, configuration: configuration) { service in
                manager.delegate = delegate
                // As the sample's loop does, one start after another; the service is killed the
                // moment the last one returns, before it may have recorded the last of them.
                try await blocking {
                    for download in downloads { try manager.startForegroundDownload(download) }
                }
                kill(service.process.pid, SIGKILL)
                _ = try await service.process.waitForExit()
            }
            try await withService(deviceRoot: root.url, configuration: configuration) { _ in
                try await poll(until: {
                    let current = try await blocking { try manager.fetchCurrentDownloads() }
                    return Set(current.map(\.identifier)) == Set(downloads.map(\.identifier))
                }, "every started download in the restarted service's queue")
            }
        }
    }
}
