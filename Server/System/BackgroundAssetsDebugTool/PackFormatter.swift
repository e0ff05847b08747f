/*
Abstract:
Renders managed asset packs: one line per pack, for `packs` and `status`.
*/

import BackgroundAssetsIPC
import Foundation

/// Turns the ``AssetPackStatus`` values of installed apps into lines a person can read and `grep` can match.
struct PackFormatter {
    var apps: [AppStatus]

    /// One line per pack: `APP PACK version=2 policy=onDemand state=installed size=1.2 MiB`.
    func lines() -> [String] {
        apps.flatMap { app in
            (app.assetPacks ?? []).map { pack in
                let version = pack.installedVersion.map(String.init) ?? "-"
                var state = pack.state
                if let next = pack.downloadingVersion, next != pack.installedVersion { state += " v\(next)" }
                if let done = pack.completedBytes, let total = pack.totalBytes, total > 0 {
                    state += " \(Int(Double(done) * 100 / Double(total)))%"
                }
                let size = pack.sizeOnDisk.map(ByteCountText.describe) ?? "-"
                return "\(StatusFormatter.shortened(app.bundleIdentifier)) \(pack.packID) version=\(version) "
                    + "policy=\(pack.downloadPolicy.replacingOccurrences(of: " ", with: "")) state=\(state.replacingOccurrences(of: " ", with: "-")) "
                    + "size=\(size.replacingOccurrences(of: " ", with: ""))"
            }
        }
    }

    /// The section `status` adds when any app has managed packs.
    func section() -> String? {
        let lines = lines()
        guard !lines.isEmpty else { return nil }
        return (["Asset packs:"] + lines.map { "  " + $0 }).joined(separator: "\n")
    }
}
