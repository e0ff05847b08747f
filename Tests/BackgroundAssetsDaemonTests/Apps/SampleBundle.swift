/*
Abstract:
The sample's real Info.plists for the Apps tests, and edited copies of them for each refusal.
*/

@testable import BackgroundAssetsDaemon
import Foundation

/// The sample's `App/Info.plist` and `Extension/Info.plist`, read from the repository, and variations of them.
enum SampleBundle {
    /// The repository's root, found from this file's location (`Tests/BackgroundAssetsDaemonTests/Apps/`).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `App/Info.plist`.
    static let appPlistURL = repositoryRoot.appending(path: "App/Info.plist")
    /// `Extension/Info.plist`.
    static let extensionPlistURL = repositoryRoot.appending(path: "Extension/Info.plist")

    /// The app's Info.plist as a dictionary, to edit.
    static func appDictionary() throws -> [String: Any] { try dictionary(appPlistURL) }
    /// The extension's Info.plist as a dictionary, to edit.
    static func extensionDictionary() throws -> [String: Any] { try dictionary(extensionPlistURL) }

    /// The sample's bundle, validated.
    static func description() throws -> AppBundleDescription {
        try AppBundleDescription(appPlistAt: appPlistURL, extensionPlistAt: extensionPlistURL)
    }

    /// XML property list bytes of a dictionary.
    static func xml(_ dictionary: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
    }

    /// A copy of `dictionary` with the value at a key path replaced, or removed when `value` is `nil`.
    static func setting(_ dictionary: [String: Any], _ path: [String], to value: Any?) -> [String: Any] {
        var copy = dictionary
        guard let first = path.first else { return copy }
        if path.count == 1 {
            copy[first] = value
        } else {
            copy[first] = setting(copy[first] as? [String: Any] ?? [:], Array(path.dropFirst()), to: value)
        }
        return copy
    }

    /// The error validating an app Info.plist throws, or `nil` when it validates.
    static func appRefusal(_ dictionary: [String: Any], file: String = "App/Info.plist") throws -> AppBundleError? {
        do {
            _ = try AppInfoPlist(data: xml(dictionary), file: file)
            return nil
        } catch let error as AppBundleError {
            return error
        }
    }

    /// The error validating an extension Info.plist against the sample app throws, or `nil` when it validates.
    static func extensionRefusal(_ dictionary: [String: Any]) throws -> AppBundleError? {
        let app = try AppInfoPlist(data: Data(contentsOf: appPlistURL), file: "App/Info.plist")
        do {
            let appExtension = try ExtensionInfoPlist(data: xml(dictionary), file: "Extension/Info.plist")
            _ = try AppBundleDescription(app: app, extension: appExtension, extensionFile: "Extension/Info.plist")
            return nil
        } catch let error as AppBundleError {
            return error
        }
    }

    private static func dictionary(_ url: URL) throws -> [String: Any] {
        let parsed = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        return parsed as? [String: Any] ?? [:]
    }
}
