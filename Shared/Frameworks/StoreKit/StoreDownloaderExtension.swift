/*
Abstract:
StoreKit's downloader extension for Apple-hosted asset packs: the managed extension, for packs the store hosts.
*/

import BackgroundAssets

/// An app extension that uses the system implementation to schedule Apple-hosted asset-pack downloads automatically.
///
/// You can optionally implement the inherited ``ManagedDownloaderExtension`` requirements
/// (`shouldDownload(_:)`), but don't implement any of the inherited `BADownloaderExtension`
/// requirements for which this protocol provides a default implementation:
/// ```swift
/// import BackgroundAssets
/// import StoreKit
///
/// @main
/// struct DownloaderExtension: StoreDownloaderExtension {
///     func shouldDownload(_ assetPack: AssetPack) -> Bool {
///         true
///     }
/// }
/// ```
/// - Note: An app whose Info.plist sets `BAUsesAppleHosting` has its packs' catalog and archives
///   fetched from the device's Apple hosting server (`backgroundassets-debug settings
///   --apple-hosting-server URL`), which plays App Store Connect here. The extension runs through the
///   same entry point as a `ManagedDownloaderExtension`; Apple's also declares its configuration with
///   ExtensionFoundation, which this module does not need.
public protocol StoreDownloaderExtension: ManagedDownloaderExtension {}
