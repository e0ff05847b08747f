/*
Abstract:
Where installed asset packs live in an app group container, and how a reader finds a pack's current version.
*/

import Foundation

/// The folders of an app group's asset packs, shared by the system, which installs packs, and the
/// framework, which reads them.
///
/// ```
/// Library/BackgroundAssets/AssetPacks/
///     Tutorial/current -> v2     a symbolic link, replaced in one rename when a version is complete
///     Tutorial/v2/…              the unpacked files of version 2
///     .staging/…                 versions being unpacked: never visible through `current`
///     .trash/…                   versions being deleted
/// ```
/// A reader always goes through `current`, so it sees a whole version, old or new, never a mix:
/// a new version is unpacked beside the old one and made current by renaming a new link over the
/// old link, which is atomic.
public struct AssetPackContainerLayout: Sendable, Equatable {
    /// The name of the link to a pack's current version.
    public static let currentLinkName = "current"

    /// The folder that holds every pack of the app group.
    public let root: URL

    /// The layout inside an app group container.
    /// - Parameter appGroupContainer: The container, `containers/GROUP/` under the device root.
    public init(appGroupContainer: URL) {
        root = appGroupContainer.appending(path: "Library/BackgroundAssets/AssetPacks", directoryHint: .isDirectory)
    }

    /// A layout rooted at a folder of packs.
    public init(root: URL) {
        self.root = root
    }

    /// `ID/`: everything of one pack.
    public func packDirectory(_ packID: String) -> URL {
        root.appending(path: packID, directoryHint: .isDirectory)
    }

    /// `ID/current`: the link a reader follows.
    public func currentLink(_ packID: String) -> URL {
        packDirectory(packID).appending(path: Self.currentLinkName, directoryHint: .isDirectory)
    }

    /// `ID/vVERSION/`: one unpacked version.
    public func versionDirectory(_ packID: String, version: Int) -> URL {
        packDirectory(packID).appending(path: Self.versionFolderName(version), directoryHint: .isDirectory)
    }

    /// `.staging/`: where versions are unpacked before they become visible.
    public var stagingDirectory: URL { root.appending(path: ".staging", directoryHint: .isDirectory) }

    /// `.trash/`: where whole versions are moved, in one rename, before they are deleted.
    public var trashDirectory: URL { root.appending(path: ".trash", directoryHint: .isDirectory) }

    /// The name of a version's folder, `vVERSION`.
    public static func versionFolderName(_ version: Int) -> String { "v\(version)" }

    /// The version a folder name stands for, or `nil` when it is not a version folder.
    public static func version(ofFolderNamed name: String) -> Int? {
        guard name.hasPrefix("v"), let version = Int(name.dropFirst()), version >= 0,
              versionFolderName(version) == name else { return nil }
        return version
    }

    /// The version of a pack that readers see, or `nil` when the pack is not installed.
    public func installedVersion(of packID: String) -> Int? {
        guard AssetPackIdentifier.problem(with: packID) == nil,
              let target = try? FileManager.default.destinationOfSymbolicLink(atPath: currentLink(packID).path)
        else { return nil }
        return Self.version(ofFolderNamed: target)
    }

    /// Every installed pack and the version readers see, by identifier.
    public func installedPacks() -> [String: Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var packs: [String: Int] = [:]
        for name in names where !name.hasPrefix(".") {
            if let version = installedVersion(of: name) { packs[name] = version }
        }
        return packs
    }
}
