/*
Abstract:
The port the sample's App/Info.plist expects its asset server on, so the port is set in one place.
*/

import Foundation

/// Reads the port of `BAManifestURL` in the package's `App/Info.plist`.
///
/// The sample's identity lives in its two Info.plists. Changing the port there is enough: the asset
/// server and the demo started inside the package listen where `BAManifestURL` points.
public enum SamplePort {
    /// The port used when no Info.plist names one.
    public static let fallback = 8080

    /// The loopback port of `BAManifestURL` in `App/Info.plist` of the package `directory` is in
    /// (found as SwiftPM finds `Package.swift`), or ``fallback``.
    /// - Parameter directory: Where the search starts, usually the current directory.
    public static func fromAppInfoPlist(searchingFrom directory: URL) -> Int {
        var folder = directory.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: folder.appending(path: "Package.swift").path) {
                return port(inInfoPlist: folder.appending(path: "App/Info.plist")) ?? fallback
            }
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path else { return fallback }
            folder = parent
        }
    }

    /// The port of a loopback `BAManifestURL` in an Info.plist, or `nil` when it has none.
    static func port(inInfoPlist file: URL) -> Int? {
        guard let data = try? Data(contentsOf: file), data.count < 1 << 20,
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let text = plist["BAManifestURL"] as? String, let url = URL(string: text),
            let host = url.host(), ["127.0.0.1", "localhost", "::1"].contains(host)
        else { return nil }
        return url.port ?? (url.scheme == "https" ? 443 : 80)
    }
}
