/*
Abstract:
The managed downloader extension of WWDC Slides: the system downloads the asset packs; the extension only decides which.
*/

import BackgroundAssets
import Foundation
import OSLog

/// The extension the system launches when WWDC Slides is installed or updated.
///
/// With managed asset packs the system does the work a `BADownloaderExtension` does by hand: it
/// reads the download manifest, downloads the essential packs before the app can launch and the
/// prefetch packs right after, verifies and unpacks them into the app group, and keeps them up to
/// date. Adopting `ManagedDownloaderExtension` gives every entry point a system implementation;
/// don't implement the inherited `BADownloaderExtension` methods. What's left is a choice the app
/// can make better than the system: which of the packs this device needs.
@main
struct BackgroundDownloadHandler: ManagedDownloaderExtension {
    func shouldDownload(_ assetPack: AssetPack) -> Bool {
        // The system asks about each essential and prefetch pack of an install or an update, never
        // about on-demand packs: those download when the app asks for them. Returning false leaves
        // a pack off this device, for example high-resolution artwork on a device with a small
        // screen. WWDC Slides needs the session list (essential) and wants the transcripts
        // (prefetch) on every device.
        Logger.ext.info("The system asks whether to download \(assetPack.id) version \(assetPack.version): yes.")
        return true
    }
}
