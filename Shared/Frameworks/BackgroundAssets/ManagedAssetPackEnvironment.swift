/*
Abstract:
Whether an app may use the asset-pack manager: its Info.plist keys and its extension's protocol.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// The app's managed-pack configuration: what its Info.plist says, whether its downloader extension
/// adopts ``ManagedDownloaderExtension``, and where its packs are installed.
package struct ManagedAssetPackEnvironment: Sendable, Equatable {
    /// What is known of the app's downloader extension.
    package enum ExtensionAdoption: Sendable, Equatable {
        /// It adopts `ManagedDownloaderExtension`.
        case adopted
        /// It adopts only `BADownloaderExtension`; the type's name, when known.
        case notAdopted(typeName: String?)
        /// The app has no downloader extension.
        case noExtension
        /// The system has not run the extension yet, so it cannot tell.
        case unknown
    }

    /// The app's bundle identifier, for messages.
    package var bundleIdentifier: String
    /// The Info.plist keys.
    package var settings: ManagedAssetPackSettings
    /// What is known of the extension.
    package var extensionAdoption: ExtensionAdoption
    /// Where the app group's packs are installed, or `nil` when there is no app group container.
    package var layout: AssetPackContainerLayout?

    /// Creates an environment.
    package init(bundleIdentifier: String, settings: ManagedAssetPackSettings, extensionAdoption: ExtensionAdoption,
                 layout: AssetPackContainerLayout?) {
        self.bundleIdentifier = bundleIdentifier
        self.settings = settings
        self.extensionAdoption = extensionAdoption
        self.layout = layout
    }

    /// Why the app may not use the asset-pack manager, or `nil` when it may.
    ///
    /// Apple calls these programmer errors and stops the app; here they are thrown, with the key or
    /// protocol to fix, so the developer sees the reason instead of a crash.
    package var refusal: BAError? {
        let app = "The app \(bundleIdentifier.debugDescription) uses AssetPackManager, but"
        if let problem = settings.managementProblem {
            return BAError(.callerConnectionNotAccepted, message: "\(app) \(problem) Then install it again "
                + "(backgroundassets-debug install).")
        }
        switch extensionAdoption {
        case .adopted, .unknown:
            break
        case let .notAdopted(typeName):
            return BAError(.callerConnectionNotAccepted, message: "\(app) its downloader extension"
                + (typeName.map { " \($0)" } ?? "") + " adopts BADownloaderExtension rather than "
                + "ManagedDownloaderExtension; the system manages packs only with the managed extension. Adopt "
                + "ManagedDownloaderExtension (implement shouldDownload(_:) or keep its default), then rebuild "
                + "and install again.")
        case .noExtension:
            return BAError(.callerConnectionNotAccepted, message: "\(app) it has no downloader extension; add one "
                + "that adopts ManagedDownloaderExtension, then install again.")
        }
        guard layout != nil else {
            return BAError(.callerConnectionNotAccepted, message: "\(app) the container of its app group "
                + "\(settings.appGroupID ?? "") cannot be used; check BAAppGroupID.")
        }
        return nil
    }
}
