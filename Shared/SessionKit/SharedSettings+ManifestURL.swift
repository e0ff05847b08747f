/*
Abstract:
Where the manifest is served from: the app's BAManifestURL, which also anchors the manifest's relative session URLs.
*/

import Foundation

extension SharedSettings {
    /// The environment variable that carries the app's `BAManifestURL` to the app and its extension.
    public static let manifestURLVariable = "BA_MANIFEST_URL"

    /// The `BAManifestURL` that `App/Info.plist` declares.
    public static let defaultManifestURL = URL(string: "http://127.0.0.1:8080/manifest.json")!

    /// The URL the app's manifest is served from.
    ///
    /// The manifest's session URLs may be relative to it (the asset server writes them that way so
    /// one catalog works behind any host and port), so both the app and the extension resolve them
    /// against this URL.
    /// - Note: On Apple platforms this is the `BAManifestURL` of the app's Info.plist, read with
    ///   `Bundle.main.object(forInfoDictionaryKey:)`. The app and extension here are plain
    ///   executables without a bundle, so the value comes from `BA_MANIFEST_URL` when it is set,
    ///   and otherwise is the one `App/Info.plist` declares.
    /// - Parameter environment: The environment to read; the process's own by default.
    /// - Returns: The manifest's URL.
    public static func manifestURL(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        guard let value = environment[manifestURLVariable], !value.isEmpty,
              let url = URL(string: value), url.scheme != nil, url.host != nil
        else { return defaultManifestURL }
        return url
    }
}
