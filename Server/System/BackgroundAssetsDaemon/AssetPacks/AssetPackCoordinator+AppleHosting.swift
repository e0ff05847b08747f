/*
Abstract:
Where an app's packs are listed: its BAManifestURL, or for an Apple-hosted app, the device's Apple hosting server.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackCoordinator {
    /// The path under the Apple hosting server where an app's download manifest is, its archives beside it.
    static func appleHostingPath(of bundleIdentifier: String) -> String {
        "apple-hosting/\(bundleIdentifier)/manifest.json"
    }

    /// Whether the app's Info.plist sets `BAUsesAppleHosting`.
    func usesAppleHosting(_ app: InstalledApp) -> Bool {
        (try? settings(of: app).get())?.usesAppleHosting == true
    }

    /// Where the app's download manifest is fetched from: for an app that sets `BAUsesAppleHosting`,
    /// the device's Apple hosting server, which plays App Store Connect; otherwise its `BAManifestURL`.
    ///
    /// Only the place differs: the manifest, its archives, the policies, updates and removal are
    /// those of self-hosted packs.
    /// - Returns: The URL, or the refusal that says how to set what is missing.
    func manifestURL(of app: InstalledApp) -> Result<URL, WireFailure> {
        guard usesAppleHosting(app) else {
            guard let url = app.bundle.app.manifestURL else {
                return .failure(Self.refusal("The app \(app.bundleIdentifier.debugDescription) has no BAManifestURL in its "
                    + "Info.plist, where its self-hosted asset packs are listed. Add it, then install it again "
                    + "(backgroundassets-debug install)."))
            }
            return .success(url)
        }
        guard let server = appleHostingServer else {
            return .failure(Self.refusal("The app \(app.bundleIdentifier.debugDescription) sets BAUsesAppleHosting, but this "
                + "device has no Apple hosting server to fetch its asset packs from. Point the device at the server that "
                + "hosts them, as Apple's Developer settings point a device at a mock server, with backgroundassets-debug "
                + "settings --apple-hosting-server URL, where URL is the one the asset server prints when it starts."))
        }
        let base = server.absoluteString.hasSuffix("/") ? server.absoluteString : server.absoluteString + "/"
        guard let url = URL(string: base + Self.appleHostingPath(of: app.bundleIdentifier)) else {
            return .failure(Self.refusal("The Apple hosting server \(server.absoluteString) gives no URL for "
                + "\(app.bundleIdentifier.debugDescription); set it again with backgroundassets-debug settings --apple-hosting-server."))
        }
        return .success(url)
    }
}
