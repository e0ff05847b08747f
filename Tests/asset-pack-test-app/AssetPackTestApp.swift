/*
Abstract:
An app for the asset-pack tests: calls AssetPackManager as a test tells it and prints what it saw, one line each.
*/

import BackgroundAssets
import Foundation

/// The app the asset-pack tests install beside `asset-pack-test-extension`: each command of
/// ``AssetPackTestCommand`` is one `AssetPackManager` call (`asset-pack-test-app --help` lists them).
@main
struct AssetPackTestApp {
    static func main() async {
        let command = AssetPackTestCommand.parseOrExit()
        let manager = AssetPackManager.shared
        do {
            switch command.kind {
            case let .ensure(id, latest, callers):
                try await ensure(id, latest: latest, callers: callers, manager: manager)
            case let .read(path, packID, out):
                let data = try manager.contents(at: FilePath(path), searchingInAssetPackWithID: packID)
                try data.write(to: URL(fileURLWithPath: out))
                say("read \(path) \(data.count) bytes")
            case let .url(path, out):
                let url = try manager.url(for: FilePath(path))
                try Data(contentsOf: url).write(to: URL(fileURLWithPath: out))
                say("url \(path) \(url.path)")
            case let .timeEnsure(id, count):
                try await timeEnsure(id, count: count, manager: manager)
            case let .remove(id):
                try await manager.remove(assetPackWithID: id)
                say("removed \(id)")
            case .check:
                let (updating, removed) = try await manager.checkForUpdates()
                say("updating \(updating.sorted().joined(separator: ",")) removed \(removed.sorted().joined(separator: ","))")
            case .manifest:
                for pack in try await manager.allAssetPacks.sorted(by: { $0.id < $1.id }) {
                    say("pack \(pack.id) v\(pack.version) \(pack.downloadSize)")
                }
            }
        } catch {
            say("error: \(error)")
            exit(1)
        }
        exit(0)
    }

    /// Times `ensureLocalAvailability(of:)` of a pack already on the device, `count` times: the benchmark's.
    private static func timeEnsure(_ id: String, count: Int, manager: AssetPackManager) async throws {
        let pack = try await manager.assetPack(withID: id)
        var samples: [Double] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            try await manager.ensureLocalAvailability(of: pack)
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        let sorted = samples.sorted()
        say(String(format: "ensure first=%.1fus median=%.1fus p99=%.1fus max=%.1fus", samples[0],
                   sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted[sorted.count - 1]))
    }

    /// Runs `callers` concurrent `ensureLocalAvailability` calls, each watching the pack's updates.
    private static func ensure(_ id: String, latest: Bool, callers: Int, manager: AssetPackManager) async throws {
        let pack = try await manager.assetPack(withID: id)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 1...callers {
                let updates = manager.statusUpdates(forAssetPackWithID: id)
                group.addTask {
                    let watcher = Task {
                        for await update in updates { say("\(caller) \(describe(update))") }
                    }
                    var failure: (any Error)?
                    do {
                        try await manager.ensureLocalAvailability(of: pack, requireLatestVersion: latest)
                    } catch {
                        failure = error
                    }
                    // A download's finished or failed update is published before ensureLocalAvailability
                    // returns or throws, and ends the pack's sequence: the watcher ends once it has printed
                    // it, so the update comes before the error line. A pack that was already there has no
                    // updates, and its sequence stays open: give up on it.
                    let deadline = Task {
                        try? await Task.sleep(for: .seconds(5))
                        watcher.cancel()
                    }
                    _ = await watcher.result
                    deadline.cancel()
                    if let failure { throw failure }
                }
            }
            try await group.waitForAll()
        }
        let available = manager.assetPackIsAvailableLocally(withID: id)
        say("available \(id) \(available)")
    }

    private static func describe(_ update: AssetPackManager.DownloadStatusUpdate) -> String {
        switch update {
        case let .began(pack): "began \(pack.id) v\(pack.version)"
        case let .paused(pack): "paused \(pack.id) v\(pack.version)"
        case let .downloading(pack, progress):
            "downloading \(pack.id) v\(pack.version) \(progress.completedUnitCount)/\(progress.totalUnitCount)"
        case let .finished(pack): "finished \(pack.id) v\(pack.version)"
        case let .failed(pack, error): "failed \(pack.id) v\(pack.version) \(error)"
        @unknown default: "unknown"
        }
    }

    /// Writes a line at once, unbuffered, so a test reading the pipe sees each update as it happens.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
