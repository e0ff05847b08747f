/*
Abstract:
Tests of ensureLocalAvailability against an in-memory system: one shared download, ordered status updates, failures.
*/

import AssetPackFormat
@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

/// One status update as a line, for comparing sequences.
func line(_ update: AssetPackManager.DownloadStatusUpdate) -> String {
    switch update {
    case let .began(pack): "began \(pack.id) v\(pack.version)"
    case let .paused(pack): "paused \(pack.id)"
    case let .downloading(pack, progress): "downloading \(pack.id) \(progress.completedUnitCount)/\(progress.totalUnitCount)"
    case let .finished(pack): "finished \(pack.id) v\(pack.version)"
    case let .failed(pack, error): "failed \(pack.id): \(error)"
    }
}

/// Starts watching now, and collects the updates until the sequence finishes or `count` arrived.
func collect<Updates: AsyncSequence<AssetPackManager.DownloadStatusUpdate, Never> & Sendable>(
    _ updates: Updates, count: Int = .max
) -> Task<[String], Never> {
    // Made here, not in the task, so the watch starts before the test sends anything; only the task uses it.
    nonisolated(unsafe) var iterator = updates.makeAsyncIterator()
    return Task {
        var lines: [String] = []
        while lines.count < count, let update = await iterator.next(isolation: nil) { lines.append(line(update)) }
        return lines
    }
}

@Suite("Ensuring asset packs are available")
struct AssetPackManagerDownloadTests {
    private let onDemand = AssetPackDownloadPolicy.onDemand

    @Test("Two callers of ensureLocalAvailability share one download, and both return when it finishes")
    func twoCallersShareOneDownload() async throws {
        let system = try InMemoryAssetPackSystem()
        system.publish([("Slides-2023", 1, onDemand)])
        let manager = system.manager()
        let pack = try await manager.assetPack(withID: "Slides-2023")
        let first = Task { try await manager.ensureLocalAvailability(of: pack) }
        let second = Task { try await manager.ensureLocalAvailability(of: pack) }
        try await poll(until: { await manager.waiterCount(forPackWithID: "Slides-2023") == 2 }, "both callers waiting")
        // A second request would have been a second download.
        #expect(system.requests.count == 1)
        try system.install("Slides-2023", version: 1, files: ["keynote.pdf": "slides"])
        system.send(.finished(packID: "Slides-2023", version: 1))
        try await first.value
        try await second.value
        #expect(system.requests.map(\.id) == ["Slides-2023"])
        #expect(try manager.contents(at: "keynote.pdf") == Data("slides".utf8))
    }

    @Test("Every watcher sees began, progress and finished in order; a pack's sequence then ends")
    func orderedStatusUpdates() async throws {
        let system = try InMemoryAssetPackSystem()
        system.publish([("Transcripts", 2, onDemand), ("Other", 1, onDemand)])
        let manager = system.manager()
        let all = collect(await manager.statusUpdates, count: 5)
        let one = collect(manager.statusUpdates(forAssetPackWithID: "Transcripts"))
        let pack = try await manager.assetPack(withID: "Transcripts")
        let waiter = Task { try await manager.ensureLocalAvailability(of: pack) }
        try await poll(until: { system.requests.count == 1 }, "the download request")
        system.send(.began(packID: "Transcripts", version: 2))
        system.send(.downloading(packID: "Transcripts", version: 2, completedBytes: 400, totalBytes: 1000))
        system.send(.downloading(packID: "Other", version: 1, completedBytes: 1, totalBytes: 1000))
        system.send(.downloading(packID: "Transcripts", version: 2, completedBytes: 1000, totalBytes: 1000))
        try system.install("Transcripts", version: 2, files: ["a.txt": "a"])
        system.send(.finished(packID: "Transcripts", version: 2))
        try await waiter.value
        #expect(await one.value == ["began Transcripts v2", "downloading Transcripts 400/1000",
                                    "downloading Transcripts 1000/1000", "finished Transcripts v2"])
        #expect(await all.value == ["began Transcripts v2", "downloading Transcripts 400/1000", "downloading Other 1/1000",
                                    "downloading Transcripts 1000/1000", "finished Transcripts v2"])
    }

    @Test("A pack's sequence watches from when it is made: a task that starts iterating late still gets every update")
    func packSequenceWatchesFromItsMaking() async throws {
        let system = try InMemoryAssetPackSystem()
        system.publish([("Slides", 1, onDemand)])
        let manager = system.manager()
        let updates = manager.statusUpdates(forAssetPackWithID: "Slides")
        let pack = try await manager.assetPack(withID: "Slides")
        let waiter = Task { try await manager.ensureLocalAvailability(of: pack) }
        try await poll(until: { system.requests.count == 1 }, "the download request")
        system.send(.began(packID: "Slides", version: 1))
        system.send(.downloading(packID: "Slides", version: 1, completedBytes: 10, totalBytes: 20))
        try system.install("Slides", version: 1, files: ["a.pdf": "a"])
        system.send(.finished(packID: "Slides", version: 1))
        try await waiter.value
        // Only now does anyone iterate: the updates posted since the sequence was made are all there.
        var lines: [String] = []
        for await update in updates { lines.append(line(update)) }
        #expect(lines == ["began Slides v1", "downloading Slides 10/20", "finished Slides v1"])
        // A sequence made and never iterated stops watching when it goes.
        do { _ = manager.statusUpdates(forAssetPackWithID: "Slides") }
        #expect(manager.broadcaster.watcherCount == 0)
    }

    @Test("A failed download fails every caller with its error, and ends the pack's sequence with it")
    func failedDownload() async throws {
        let system = try InMemoryAssetPackSystem()
        system.publish([("Broken", 1, onDemand)])
        let manager = system.manager()
        let updates = collect(manager.statusUpdates(forAssetPackWithID: "Broken"))
        let pack = try await manager.assetPack(withID: "Broken")
        let callers = (0..<2).map { _ in Task { try await manager.ensureLocalAvailability(of: pack) } }
        try await poll(until: { system.requests.count == 1 }, "the download request")
        let failure = WireFailure.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue,
                                                   message: "The archive of Broken does not match its SHA-256.")
        system.send(.failed(packID: "Broken", version: 1, failure: failure))
        for caller in callers {
            await #expect(throws: BAError(.downloadFailedToStart, message: failure.message)) { try await caller.value }
        }
        #expect(await updates.value == ["failed Broken: The archive of Broken does not match its SHA-256."])
        #expect(!manager.assetPackIsAvailableLocally(withID: "Broken"))
    }

    @Test("A pack already on the device is available at once, without asking the system")
    func alreadyInstalled() async throws {
        let system = try InMemoryAssetPackSystem()
        system.publish([("Essentials", 1, .essential(installationEventTypes: [.firstInstallation]))])
        try system.install("Essentials", version: 1, files: ["config.json": "{}"])
        let manager = system.manager()
        let pack = try await manager.assetPack(withID: "Essentials")
        let reads = system.manifestReads
        try await manager.ensureLocalAvailability(of: pack)
        #expect(system.requests.isEmpty)
        #expect(system.manifestReads == reads)
    }

    @Test("requireLatestVersion downloads a newer version; without it, the installed version will do")
    func requireLatestVersion() async throws {
        let system = try InMemoryAssetPackSystem()
        system.publish([("Textures", 1, onDemand)])
        try system.install("Textures", version: 1, files: ["stone.png": "v1"])
        let manager = system.manager()
        let old = try await manager.assetPack(withID: "Textures")
        system.publish([("Textures", 2, onDemand)])
        try await manager.ensureLocalAvailability(of: old, requireLatestVersion: false)
        #expect(system.requests.isEmpty)
        let update = Task { try await manager.ensureLocalAvailability(of: old, requireLatestVersion: true) }
        try await poll(until: { system.requests.count == 1 }, "the update's request")
        #expect(system.requests.first?.version == 2)
        // Until the new version is complete, the old one is what the app reads.
        #expect(try manager.contents(at: "stone.png") == Data("v1".utf8))
        try system.install("Textures", version: 2, files: ["stone.png": "v2"])
        system.send(.finished(packID: "Textures", version: 2))
        try await update.value
        #expect(try manager.contents(at: "stone.png") == Data("v2".utf8))
    }

    @Test("A request the system refuses fails the caller with the system's error")
    func refusedRequest() async throws {
        let system = try InMemoryAssetPackSystem()
        system.publish([("Level", 1, onDemand)])
        let manager = system.manager()
        let pack = try await manager.assetPack(withID: "Level")
        system.failRequests(with: BAError(.downloadWouldExceedAllowance, message: "Not enough space for Level."))
        await #expect(throws: BAError(.downloadWouldExceedAllowance, message: "Not enough space for Level.")) {
            try await manager.ensureLocalAvailability(of: pack)
        }
    }
}
