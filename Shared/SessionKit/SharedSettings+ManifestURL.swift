/*
Abstract:
Where the manifest is served from: the app's BAManifestURL, which also anchors the manifest's relative session URLs.
*/

import Foundation

extension SharedSettings {
    /// The environment variable that carries the app's `BAManifestURL` to the app and its extension.
    public static let manifestURLVariable = "BA_MANIFEST_URL"

    /// The URL the app's manifest is served from.
    ///
    /// The manifest's session URLs may be relative to it (the asset server writes them that way so
    /// one catalog works behind any host and port), so both the app and the extension resolve them
    /// against this URL.
    ///
    /// As on Apple platforms, it is the `BAManifestURL` of the app's Info.plist, read with
    /// `Bundle.main.object(forInfoDictionaryKey:)`: the app runs from its installed bundle. The
    /// extension's own Info.plist has no such key, so the system passes the app's value in
    /// `BA_MANIFEST_URL`, which also overrides the Info.plist for a demo against another server.
    /// - Parameters:
    ///   - environment: The environment to read; the process's own by default.
    ///   - bundle: The bundle whose Info.plist is read; the main bundle by default.
    /// - Returns: The manifest's URL, or `nil` for a process with neither (a test, or the app run
    ///   before `backgroundassets-debug install`): the URL is written in one place, `App/Info.plist`.
    public static func manifestURL(
        environment: [String: String] = ProcessInfo.processInfo.environment, bundle: Bundle = .main
    ) -> URL? {
        if let value = environment[manifestURLVariable], let url = usableURL(value) { return url }
        if let value = bundle.object(forInfoDictionaryKey: "BAManifestURL") as? String, let url = usableURL(value) {
            return url
        }
        return nil
    }

    private static func usableURL(_ value: String) -> URL? {
        guard !value.isEmpty, let url = URL(string: value), url.scheme != nil, url.host != nil else { return nil }
        return url
    }
}
