/*
Abstract:
A managed downloader extension for the asset-pack tests: accepts every pack but those a test declines, and records what it was asked.
*/

import BackgroundAssets
import Foundation

/// The extension the asset-pack tests install beside `asset-pack-test-app`.
///
/// As Apple's managed extension, it implements nothing but `shouldDownload(_:)`. It works in
/// `Library/Application Support/asset-pack-test/` of the app group container it shares with its app:
/// it appends each pack it is asked about to `asked.txt`, and accepts every pack but those a test
/// listed in `decline.txt`, one identifier a line. While a test has made `hold-answer` there, it
/// answers only once `release-answer` appears, so the test can see what the system does before the
/// answer.
@main
struct AssetPackTestExtension: ManagedDownloaderExtension {
    func shouldDownload(_ assetPack: AssetPack) -> Bool {
        _ = Self.waitForRelease
        let accepted = !Self.declined.contains(assetPack.id)
        // One file, opened once for the process: an install asks about every pack in one call, and
        // the benchmark's twenty packs should not pay twenty opens of it.
        Self.askedLog?.write(Data("\(assetPack.id) \(assetPack.version) \(accepted ? "yes" : "no")\n".utf8))
        return accepted
    }

    /// The folder the tests and the extension share in the app group container.
    static let folder: URL? = {
        let groups = Bundle.main.infoDictionary?["com.apple.security.application-groups"] as? [String] ?? []
        guard let group = groups.first,
              let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else { return nil }
        return container.appending(path: "Library/Application Support/asset-pack-test", directoryHint: .isDirectory)
    }()

    /// The packs a test has the extension decline.
    static let declined: Set<String> = {
        guard let file = folder?.appending(path: "decline.txt"), let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return Set(text.split(whereSeparator: \.isNewline).map(String.init))
    }()

    /// Waits, once per process, while the test holds the answer back: up to two minutes, then answers anyway.
    static let waitForRelease: Void = {
        guard let folder, FileManager.default.fileExists(atPath: folder.appending(path: "hold-answer").path) else { return }
        let release = folder.appending(path: "release-answer").path
        let deadline = Date.now.addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: release), Date.now < deadline { usleep(10_000) }
    }()

    /// `asked.txt`, opened for appending.
    static let askedLog: FileHandle? = {
        guard let folder else { return nil }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(folder.appending(path: "asked.txt").path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        return descriptor < 0 ? nil : FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }()
}
