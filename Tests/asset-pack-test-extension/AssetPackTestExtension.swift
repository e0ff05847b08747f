/*
Abstract:
A managed downloader extension for the asset-pack tests: declines the packs a test lists, and records what it was asked.
*/

import BackgroundAssets
import Foundation

/// The extension the asset-pack tests install beside `asset-pack-test-app`.
///
/// As Apple's managed extension, it implements nothing but `shouldDownload(_:)`. It declines the
/// packs listed, one per line, in `Library/Application Support/asset-pack-test/declined.txt` of its
/// app group container, and appends each pack it is asked about to `asked.txt` beside it.
@main
struct AssetPackTestExtension: ManagedDownloaderExtension {
    func shouldDownload(_ assetPack: AssetPack) -> Bool {
        guard let folder = Self.recordsFolder else { return true }
        let declined = (try? String(contentsOf: folder.appending(path: "declined.txt"), encoding: .utf8))?
            .split(separator: "\n").map(String.init) ?? []
        let answer = !declined.contains(assetPack.id)
        let line = Data("\(assetPack.id) \(assetPack.version) \(answer ? "yes" : "no")\n".utf8)
        let log = folder.appending(path: "asked.txt")
        if let handle = try? FileHandle(forWritingTo: log) {
            handle.seekToEndOfFile()
            handle.write(line)
            try? handle.close()
        } else {
            try? line.write(to: log)
        }
        return answer
    }

    /// `Library/Application Support/asset-pack-test/` in the app group the extension shares with its app.
    static var recordsFolder: URL? {
        let groups = Bundle.main.infoDictionary?["com.apple.security.application-groups"] as? [String] ?? []
        guard let group = groups.first,
              let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else { return nil }
        let folder = container.appending(path: "Library/Application Support/asset-pack-test", directoryHint: .isDirectory)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
