/*
Abstract:
A managed downloader extension for the asset-pack tests: accepts every pack, and records what it was asked.
*/

import BackgroundAssets
import Foundation

/// The extension the asset-pack tests install beside `asset-pack-test-app`.
///
/// As Apple's managed extension, it implements nothing but `shouldDownload(_:)`. It accepts every
/// pack, and appends each pack it is asked about to `Library/Application Support/asset-pack-test/asked.txt`
/// of its app group container.
@main
struct AssetPackTestExtension: ManagedDownloaderExtension {
    func shouldDownload(_ assetPack: AssetPack) -> Bool {
        // One file, opened once for the process: an install asks about every pack in one call, and
        // the benchmark's twenty packs should not pay twenty opens of it.
        Self.askedLog?.write(Data("\(assetPack.id) \(assetPack.version) yes\n".utf8))
        return true
    }

    /// `asked.txt` in `Library/Application Support/asset-pack-test/` of the app group the extension
    /// shares with its app, opened for appending.
    static let askedLog: FileHandle? = {
        let groups = Bundle.main.infoDictionary?["com.apple.security.application-groups"] as? [String] ?? []
        guard let group = groups.first,
              let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else { return nil }
        let folder = container.appending(path: "Library/Application Support/asset-pack-test", directoryHint: .isDirectory)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(folder.appending(path: "asked.txt").path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        return descriptor < 0 ? nil : FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }()
}
