/*
Abstract:
An app for the asset-pack tests: calls AssetPackManager as a test tells it and prints what it saw, one line each.
*/

import BackgroundAssets
import Foundation

/// The app the asset-pack tests install beside `asset-pack-test-extension`.
///
/// ```
/// asset-pack-test-app ensure ID [--latest] [--callers N]   ensureLocalAvailability, watched by N callers
/// asset-pack-test-app read PATH [--pack ID] --out FILE      contents(at:searchingInAssetPackWithID:)
/// asset-pack-test-app url PATH --out FILE                   url(for:), its file copied out
/// asset-pack-test-app time-ensure ID [--count N]            ensureLocalAvailability of a pack already there, N times, timed
/// asset-pack-test-app remove ID                             remove(assetPackWithID:)
/// asset-pack-test-app check                                 checkForUpdates()
/// asset-pack-test-app manifest                              allAssetPacks
/// ```
/// Every status update a caller sees is printed as `CALLER KIND ID vVERSION [DETAIL]`; errors as
/// `error: MESSAGE` on standard output too, so a test reads one stream in order. Exit status 0 on
/// success, 1 when the framework threw, 64 for a mistake in the arguments.
@main
struct AssetPackTestApp {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard !arguments.isEmpty else { usage() }
        let command = arguments.removeFirst()
        let manager = AssetPackManager.shared
        do {
            switch command {
            case "ensure":
                guard let id = arguments.first else { usage() }
                let callers = Int(value(of: "--callers", in: arguments) ?? "1") ?? 1
                try await ensure(id, latest: arguments.contains("--latest"), callers: max(callers, 1), manager: manager)
            case "read":
                guard let path = arguments.first, let out = value(of: "--out", in: arguments) else { usage() }
                let data = try manager.contents(at: FilePath(path), searchingInAssetPackWithID: value(of: "--pack", in: arguments))
                try data.write(to: URL(fileURLWithPath: out))
                say("read \(path) \(data.count) bytes")
            case "url":
                guard let path = arguments.first, let out = value(of: "--out", in: arguments) else { usage() }
                let url = try manager.url(for: FilePath(path))
                try Data(contentsOf: url).write(to: URL(fileURLWithPath: out))
                say("url \(path) \(url.path)")
            case "time-ensure":
                // ensureLocalAvailability of a pack already on the device, COUNT times: the benchmark's.
                guard let id = arguments.first, let count = Int(value(of: "--count", in: arguments) ?? "1000") else { usage() }
                let pack = try await manager.assetPack(withID: id)
                var samples: [Double] = []
                for _ in 0..<max(count, 1) {
                    let start = ContinuousClock.now
                    try await manager.ensureLocalAvailability(of: pack)
                    let elapsed = ContinuousClock.now - start
                    samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
                }
                let sorted = samples.sorted()
                say(String(format: "ensure first=%.1fus median=%.1fus p99=%.1fus max=%.1fus", samples[0],
                           sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted[sorted.count - 1]))
            case "remove":
                guard let id = arguments.first else { usage() }
                try await manager.remove(assetPackWithID: id)
                say("removed \(id)")
            case "check":
                let (updating, removed) = try await manager.checkForUpdates()
                say("updating \(updating.sorted().joined(separator: ",")) removed \(removed.sorted().joined(separator: ","))")
            case "manifest":
                for pack in try await manager.allAssetPacks.sorted(by: { $0.id < $1.id }) {
                    say("pack \(pack.id) v\(pack.version) \(pack.downloadSize)")
                }
            default:
                usage()
            }
        } catch {
            say("error: \(error)")
            exit(1)
        }
        exit(0)
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
                    try await manager.ensureLocalAvailability(of: pack, requireLatestVersion: latest)
                    // A download's finished update is published before ensureLocalAvailability returns,
                    // and ends the pack's sequence: the watcher ends once it has printed it. A pack that
                    // was already there has no updates, and its sequence stays open: give up on it.
                    let deadline = Task {
                        try? await Task.sleep(for: .seconds(5))
                        watcher.cancel()
                    }
                    _ = await watcher.result
                    deadline.cancel()
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

    private static func value(of option: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    private static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: asset-pack-test-app ensure ID [--latest] [--callers N] | read PATH [--pack ID] --out FILE | url PATH --out FILE | time-ensure ID [--count N] | remove ID | check | manifest\n".utf8))
        exit(64)
    }
}
