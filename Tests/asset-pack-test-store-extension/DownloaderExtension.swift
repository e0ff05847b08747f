/*
Abstract:
An Apple-hosted asset packs extension written as Apple's session shows it: StoreKit's StoreDownloaderExtension.
*/

import BackgroundAssets
import Foundation
import StoreKit

/// The extension of an app that sets `BAUsesAppleHosting`, as in "Discover Apple-Hosted Background
/// Assets" (WWDC25), recording each pack it is asked about in `asked.txt` of its app group, as the
/// managed test extension does, so the test can tell the system asked this extension.
@main
struct DownloaderExtension: StoreDownloaderExtension {
    func shouldDownload(_ assetPack: AssetPack) -> Bool {
        let groups = Bundle.main.infoDictionary?["com.apple.security.application-groups"] as? [String] ?? []
        if let group = groups.first, let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) {
            let folder = container.appending(path: "Library/Application Support/asset-pack-test", directoryHint: .isDirectory)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appending(path: "asked.txt")
            let line = Data("\(assetPack.id) \(assetPack.version) store\n".utf8)
            if let handle = try? FileHandle(forWritingTo: file) {
                _ = try? handle.seekToEnd()
                try? handle.write(contentsOf: line)
                try? handle.close()
            } else {
                try? line.write(to: file)
            }
        }
        return true
    }
}
