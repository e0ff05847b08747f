/*
Abstract:
An installed app's bundle under the device root: the layout Foundation reads Bundle.main from.
*/

import BackgroundAssetsIPC
import Foundation

/// The bundle an install writes: `apps/ID/NAME.app/` with the app's Info.plist and executable, and
/// the extension inside it at `Extensions/NAME.appex/`, as an app with an ExtensionKit extension is
/// laid out on Apple platforms.
///
/// swift-corelibs-foundation finds a process's main bundle from its executable's path: an
/// executable directly inside a folder that holds an `Info.plist` (a "flat" bundle, as on iOS) has
/// that folder as `Bundle.main`, and `Bundle.main.infoDictionary` is that Info.plist. Launched
/// through these folders, the app and the extension read their identity with Apple's code.
public struct InstalledBundle: Sendable, Equatable {
    /// `apps/ID/NAME.app`, named after the app's `CFBundleExecutable`.
    public let appBundle: URL
    /// The app's executable inside its bundle.
    public let appExecutable: URL
    /// `NAME.app/Extensions/NAME.appex`, named after the extension's `CFBundleExecutable`, when the app has one.
    public let extensionBundle: URL?
    /// The extension's executable inside its bundle, when the app has one.
    public let extensionExecutable: URL?

    /// The bundle of an app in its folder under `apps/`.
    /// - Parameters:
    ///   - appDirectory: `apps/ID/`.
    ///   - bundle: The app's validated Info.plists.
    public init(in appDirectory: URL, for bundle: AppBundleDescription) {
        let appBundle = appDirectory.appending(path: "\(bundle.app.executable).app", directoryHint: .isDirectory)
        self.appBundle = appBundle
        appExecutable = appBundle.appending(path: bundle.app.executable, directoryHint: .notDirectory)
        let extensionBundle = bundle.extension.map {
            appBundle.appending(path: "Extensions/\($0.executable).appex", directoryHint: .isDirectory)
        }
        self.extensionBundle = extensionBundle
        extensionExecutable = extensionBundle.flatMap { folder in
            bundle.extension.map { folder.appending(path: $0.executable, directoryHint: .notDirectory) }
        }
    }

    /// Writes the bundle, replacing the one a previous version installed.
    /// - Parameters:
    ///   - appPlist: The app's Info.plist as the developer wrote it.
    ///   - extensionPlist: The extension's, if the app has one.
    ///   - version: A `CFBundleVersion` that replaces both files' own, or `nil`.
    ///   - executables: The built app and extension executables.
    /// - Throws: An error naming the file that could not be written.
    public func write(
        appPlist: URL, extensionPlist: URL?, version: String?, executables: (app: URL, extension: URL?)
    ) throws {
        let fileManager = FileManager.default
        // Built beside the old bundle and swapped in, so a failed install leaves the old one whole.
        let staging = appBundle.deletingLastPathComponent().appending(
            path: ".\(appBundle.lastPathComponent).new", directoryHint: .isDirectory)
        try? fileManager.removeItem(at: staging)
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            try Self.writeInfoPlist(from: appPlist, version: version, to: staging.appending(path: "Info.plist"))
            try InstalledExecutable.place(executables.app, at: staging.appending(path: appExecutable.lastPathComponent))
            if let extensionBundle, let extensionExecutable, let extensionPlist, let built = executables.extension {
                let stagedExtension = staging.appending(
                    path: "Extensions/\(extensionBundle.lastPathComponent)", directoryHint: .isDirectory)
                try fileManager.createDirectory(at: stagedExtension, withIntermediateDirectories: true)
                try Self.writeInfoPlist(
                    from: extensionPlist, version: version, to: stagedExtension.appending(path: "Info.plist"))
                try InstalledExecutable.place(built, at: stagedExtension.appending(path: extensionExecutable.lastPathComponent))
            }
        } catch {
            // Half a bundle (a full disk) is removed, not left to fill the disk further.
            try? fileManager.removeItem(at: staging)
            throw error
        }
        try? fileManager.removeItem(at: appBundle)
        try fileManager.moveItem(at: staging, to: appBundle)
    }

    /// Copies an Info.plist as XML, with `CFBundleVersion` replaced when an update names a version.
    private static func writeInfoPlist(from source: URL, version: String?, to destination: URL) throws {
        let data = try Data(contentsOf: source)
        guard var plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt, userInfo: [NSFilePathErrorKey: source.path])
        }
        // The app's version is required; the extension's is optional and replaced only where written.
        if let version, plist["CFBundleVersion"] != nil {
            plist["CFBundleVersion"] = version
        }
        let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        // The device's one whole-file writer, never through a link in the app's folder (Data.write's
        // atomic option also leaves a folder in /tmp behind on Linux).
        if let reason = AtomicFileWriter.write(xml, to: destination, permissions: 0o644, followingFolderLink: false) {
            throw InfoPlistWriteFailure(description: "\(destination.path) cannot be written (\(reason))")
        }
    }

    /// Why an installed Info.plist could not be written, quoted by the install's refusal.
    private struct InfoPlistWriteFailure: Error, CustomStringConvertible {
        let description: String
    }
}
