/*
Abstract:
The downloader extension of an app whose asset packs the system manages: it only decides which packs to download.
*/

import AssetPackFormat
import ExtensionFoundation
import Foundation

/// An app extension that uses the system implementation to schedule asset-pack downloads automatically.
///
/// The protocol provides default implementations for all of the inherited `BADownloaderExtension`
/// requirements; implement ``shouldDownload(_:)`` to filter packs at run time, or nothing at all:
/// ```swift
/// @main
/// struct BackgroundDownloadHandler: ManagedDownloaderExtension {
///     func shouldDownload(_ assetPack: AssetPack) -> Bool {
///         assetPack.id != "HighResolutionTextures" || ProcessInfo.processInfo.physicalMemory > 4 << 30
///     }
/// }
/// ```
/// - Warning: Don't implement any of the inherited `BADownloaderExtension` requirements aside from,
///   optionally, `backgroundDownload(_:didReceive:)`.
/// As Apple's, the protocol constrains the extension's `Configuration` to
/// ``ManagedDownloaderExtensionConfiguration`` and supplies one, so the extension declares none.
public protocol ManagedDownloaderExtension: BADownloaderExtension
where Self.Configuration: ManagedDownloaderExtensionConfiguration {
    /// Determines whether to download an asset pack.
    ///
    /// By default, the system downloads every applicable pack with an essential or prefetch download
    /// policy for the current installation event.
    /// - Parameter assetPack: An asset pack that's being considered as a candidate to be downloaded.
    /// - Returns: Whether the asset pack should be downloaded.
    func shouldDownload(_ assetPack: AssetPack) -> Bool
}

extension ManagedDownloaderExtension {
    /// Downloads every pack it is asked about.
    public func shouldDownload(_ assetPack: AssetPack) -> Bool {
        true
    }

    /// The system's implementation: the packs of the download manifest (the file at the app's
    /// `BAManifestURL`) whose policy applies to an install or update, that are not installed in
    /// that version yet, and that ``shouldDownload(_:)`` accepts.
    ///
    /// Essential packs are essential downloads of an install or update, so the app cannot launch
    /// until they are installed; prefetch packs download right after. A periodic check returns
    /// nothing here: updating installed packs is the system's work.
    public func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    {
        guard let appGroupID = Self.appGroupID(in: Bundle.main.infoDictionary ?? [:]) else {
            StandardError.write("The managed downloader extension's Info.plist names no app group (BAAppGroupID); "
                + "add the group it shares with the app, so asset packs can be installed there.")
            return []
        }
        let installed = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupID)
            .map { AssetPackContainerLayout(appGroupContainer: $0).installedPacks() } ?? [:]
        do {
            let manifest = try AssetPackManifest(contentsOf: manifestURL, appGroupID: appGroupID)
            return packDownloads(for: request, manifest: manifest, installed: installed)
        } catch {
            StandardError.write("The asset-pack manifest at the app's BAManifestURL cannot be used, so no pack is "
                + "downloaded for this \(request) request: \(error)")
            return []
        }
    }

    /// The downloads of the packs whose policy applies to an install or update, that are not
    /// installed in that version, and that ``shouldDownload(_:)`` accepts.
    /// - Parameter installed: The installed version of each pack.
    func packDownloads(for request: BAContentRequest, manifest: AssetPackManifest, installed: [String: Int]) -> Set<BADownload> {
        guard request != .periodic else { return [] }
        let candidates = manifest.orderedPacks.filter { pack in
            pack.applies(to: request) && pack.downloadPolicy != .onDemand && installed[pack.id] != pack.version
        }
        return Set(candidates.filter(shouldDownload).map { $0.download(for: request) })
    }

    /// The app group of a managed extension: `BAAppGroupID`, else the first of its application groups.
    static func appGroupID(in infoDictionary: [String: Any]) -> String? {
        (infoDictionary[ManagedAssetPackSettings.appGroupIDKey] as? String)
            ?? (infoDictionary["AppGroupIdentifier"] as? String)
            ?? (infoDictionary["com.apple.security.application-groups"] as? [String])?.first
    }
}

extension BADownloaderExtension {
    /// Whether the extension type adopts ``ManagedDownloaderExtension``, which the system must know
    /// before it lets the app use ``AssetPackManager``.
    package static var adoptsManagedProtocol: Bool {
        Self.self is any ManagedDownloaderExtension.Type
    }
}
