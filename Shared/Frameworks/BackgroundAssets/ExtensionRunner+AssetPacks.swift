/*
Abstract:
Runs a managed extension's shouldDownload(_:) for the packs the system would download, or says the extension is not managed.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension ExtensionRunner {
    /// Asks the extension which of the listed packs of a manifest to download.
    ///
    /// The system decides which packs an install or update applies to; a `ManagedDownloaderExtension`
    /// may only leave some out, one `shouldDownload(_:)` call per pack, in the manifest's order. An
    /// extension that adopts only `BADownloaderExtension` is not asked: the answer names its type, so
    /// the system can tell the app why its asset packs are not managed.
    /// - Parameters:
    ///   - manifestPath: A read-only copy of the app's download manifest, deleted after the call.
    ///   - packIDs: The packs the system would download.
    /// - Returns: The packs accepted, or the refusal of an extension that is not managed.
    func shouldDownload(manifestPath: String, packIDs: [String]) -> ExtensionCallResult {
        guard let managed = handler as? any ManagedDownloaderExtension else {
            return .notManagedExtension(typeName: String(describing: type(of: handler)))
        }
        let appGroupID = type(of: managed).appGroupID(in: Bundle.main.infoDictionary ?? [:]) ?? ""
        let manifest: AssetPackManifest
        do {
            manifest = try AssetPackManifest(contentsOf: URL(fileURLWithPath: manifestPath), appGroupID: appGroupID)
        } catch {
            StandardError.write("The system asked shouldDownload(_:) about a manifest this extension cannot read, so no "
                + "pack is accepted: \(error)")
            return .assetPackSelection(accepted: [])
        }
        let listed = Set(packIDs)
        let accepted = manifest.orderedPacks.filter { listed.contains($0.id) && managed.shouldDownload($0) }
        return .assetPackSelection(accepted: accepted.map(\.id))
    }
}
