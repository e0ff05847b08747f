/*
Abstract:
Tests that a restarted service holds a finished file from its creation, before it knows its installed apps or resumes a transfer.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Holding files while the service restarts", .serialized, .timeLimit(.minutes(3)))
struct RestartHoldTests {
    @Test("A download that finishes while the restarted service starts is held for the app's delegate, not deleted")
    func finishedDuringStartIsHeld() async throws {
        // The app is installed by a first service, which then stops, as a killed one would.
        let first = try await InProcessService()
        let installed = try await first.installTestApp()
        defer { installed.manifestServer.stop() }
        _ = try await first.waitForAppStatus(installed, "the install's end") { $0.state == .launchable ? $0 : nil }
        await first.stop()

        let service = try BackgroundAssetsService(paths: first.paths, configuration: ServiceConfiguration(), wallClock: ManualClock(start: .now))
        let app = installed.bundleIdentifier
        let group = installed.fixture.appGroupIdentifier
        let store = try DownloadStore(url: first.paths.queueDatabase)
        let descriptor = DownloadDescriptor(
            identifier: "resumed", uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:9/resumed.mp4", fileSize: 64,
            applicationGroupIdentifier: group)
        let inserted = try store.insert(NewDownload(bundleIdentifier: app, descriptor: descriptor), at: .now)
        let row = try store.update(id: inserted.id, at: .now) { $0.state = .finished }
        let folder = try #require(StagingArea(paths: first.paths).handOverFolder(ofAppGroup: group))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: StagingArea.handOverName(rowID: row.id))
        try Data(repeating: 5, count: 64).write(to: file)

        // Its end reaches the service before the service has read which apps are installed.
        await service.route(.finished(row, file: file))
        #expect(FileManager.default.fileExists(atPath: file.path), "the file was deleted")
        #expect(FileManager.default.fileExists(atPath: StagingArea.keptName(of: file).path), "a held file keeps a second name")
        #expect(await service.deliveries.heldFiles(of: app).map(\.rowID) == [row.id])
        #expect(first.trace.contains { $0.download == "resumed" && $0.detail == "held for a delegate reconnecting to the new service" })

        // Starting finds the same file in the hand-over folder: one delivery, still held.
        try await service.start()
        #expect(await service.deliveries.heldFiles(of: app).map(\.rowID) == [row.id])
        #expect(await service.deliveries.rows(of: app) == [row.id], "listed to the app while it waits for its delegate")
        await service.stop()
        #expect(FileManager.default.fileExists(atPath: file.path))
    }
}
