/*
Abstract:
An app bundle as the system sees it: the app's and its extension's Info.plists, validated alone and together.
*/

import Foundation

/// An app and its downloader extension, described by their two Info.plists, or an app alone.
///
/// `backgroundassets-debug install` plays the App Store: it builds this from `App/Info.plist` and
/// `Extension/Info.plist` and refuses the install with the ``AppBundleError`` it throws.
///
/// ```swift
/// let bundle = try AppBundleDescription(
///     appPlistAt: URL(fileURLWithPath: "App/Info.plist"),
///     extensionPlistAt: URL(fileURLWithPath: "Extension/Info.plist"))
/// print(bundle.app.manifestURL, bundle.appGroup)
/// ```
public struct AppBundleDescription: Sendable, Equatable, Codable {
    /// The app's Info.plist.
    public var app: AppInfoPlist
    /// The extension's Info.plist; `nil` for an app installed without a downloader extension (one
    /// that downloads with a background `URLSession` instead, for example).
    public var `extension`: ExtensionInfoPlist?
    /// The app group both declare, where the app and the extension share files.
    ///
    /// - Note: Apple's app and extension may share several groups; downloads name theirs. This
    ///   stand-in keeps the first group of the app's list that the extension also declares.
    public var appGroup: String

    /// Validates two parsed Info.plists against each other.
    /// - Parameters:
    ///   - app: The app's Info.plist.
    ///   - extension: The extension's Info.plist.
    ///   - extensionFile: The extension's file name for errors.
    /// - Throws: ``AppBundleError`` when the extension's identifier, version or app groups do not fit the app.
    public init(app: AppInfoPlist, extension: ExtensionInfoPlist, extensionFile: String) throws {
        let prefix = app.bundleIdentifier + "."
        guard `extension`.bundleIdentifier.hasPrefix(prefix), `extension`.bundleIdentifier.count > prefix.count else {
            throw AppBundleError(
                file: extensionFile, key: "CFBundleIdentifier",
                value: PropertyListText.quote(`extension`.bundleIdentifier),
                problem: "an extension's identifier must start with its app's (\(app.bundleIdentifier)) and a dot",
                remedy: "Use an identifier such as \(prefix)BackgroundDownloadHandler."
            )
        }
        if let version = `extension`.version, version != app.version {
            throw AppBundleError(
                file: extensionFile, key: "CFBundleVersion", value: PropertyListText.quote(version),
                problem: "it must equal the app's CFBundleVersion (\(app.version))",
                remedy: "Give the app and the extension the same build version, or remove it from the extension."
            )
        }
        // The group the app's code opens (its AppGroupIdentifier) is the shared one, when it names one.
        let candidates = app.appGroupIdentifier.map { [$0] } ?? app.appGroups
        guard let shared = candidates.first(where: `extension`.appGroups.contains) else {
            throw AppBundleError(
                file: extensionFile, key: "com.apple.security.application-groups",
                value: PropertyListText.list(`extension`.appGroups),
                problem: "it shares no app group with the app, which declares \(PropertyListText.list(app.appGroups))",
                remedy: "Add the app's group to the extension so both can reach the downloaded files."
            )
        }
        if let identifier = `extension`.appGroupIdentifier, identifier != shared {
            throw AppBundleError(
                file: extensionFile, key: PropertyListReader.appGroupIdentifierKey, value: PropertyListText.quote(identifier),
                problem: "the app's code opens \(shared), so the extension would not see the app's files",
                remedy: "Give the app and the extension the same AppGroupIdentifier."
            )
        }
        self.app = app
        self.extension = `extension`
        appGroup = shared
    }

    /// An app without a downloader extension: its files live in its app group's container.
    /// - Parameters:
    ///   - app: The app's Info.plist, read without Background Assets keys.
    ///   - appFile: The app's file name for errors.
    /// - Throws: ``AppBundleError`` when the app declares no app group.
    public init(app: AppInfoPlist, appFile: String) throws {
        guard let group = app.appGroupIdentifier ?? app.appGroups.first else {
            throw AppBundleError(
                file: appFile, key: "com.apple.security.application-groups", value: nil,
                problem: "the app declares no app group, and on this device an app's files live in its group's container",
                remedy: "Add an app group such as group.\(app.bundleIdentifier)."
            )
        }
        self.app = app
        self.extension = nil
        appGroup = group
    }

    /// Reads and validates the Info.plist files of an app bundle: the app's and its extension's, or
    /// the app's alone.
    /// - Parameters:
    ///   - appPlistAt: The app's Info.plist, such as `App/Info.plist`.
    ///   - extensionPlistAt: The extension's Info.plist, such as `Extension/Info.plist`, or `nil`
    ///     for an app without a downloader extension.
    /// - Throws: ``AppBundleError`` naming the file, and the key when the file could be read.
    public init(appPlistAt appURL: URL, extensionPlistAt extensionURL: URL?) throws {
        let appFile = appURL.relativePath
        guard let extensionURL else {
            let app = try AppInfoPlist(data: Self.read(appURL, name: appFile), file: appFile, hasExtension: false)
            try self.init(app: app, appFile: appFile)
            return
        }
        let extensionFile = extensionURL.relativePath
        let app = try AppInfoPlist(data: Self.read(appURL, name: appFile), file: appFile)
        let appExtension = try ExtensionInfoPlist(
            data: Self.read(extensionURL, name: extensionFile), file: extensionFile)
        try self.init(app: app, extension: appExtension, extensionFile: extensionFile)
    }

    /// Reads a small regular file, refusing folders, devices and anything too large to be an Info.plist.
    private static func read(_ url: URL, name: String) throws -> Data {
        func refusal(_ problem: String) -> AppBundleError {
            AppBundleError(
                file: name, key: nil, value: nil, problem: problem,
                remedy: "Pass the path of the Info.plist (for example App/Info.plist or Extension/Info.plist)."
            )
        }
        // stat(2), not attributesOfItem, which also reads /etc/passwd and /etc/group for the owner's names.
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw refusal("cannot be read (it does not exist or is not accessible)")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw refusal("is not a regular file") }
        let size = Int64(status.st_size)
        guard size <= PropertyListReader.maximumFileSize else {
            throw refusal("is \(size) bytes, more than an Info.plist's 1 MiB")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw refusal("cannot be read (\(error.localizedDescription))")
        }
    }
}
