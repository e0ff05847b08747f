/*
Abstract:
Finds a relative path among the installed packs, through each pack's current version, merging folders several packs share.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// Resolves paths of the shared namespace of an app group's installed packs.
///
/// Every lookup goes through a pack's `current` link, so it reads the version that was current at
/// that moment, whole.
struct AssetPackFileResolver {
    let layout: AssetPackContainerLayout
    /// Where folders several packs share are merged; the process's own, unless a test gives one.
    var views: MergedFolderViews = .shared

    /// The file at a relative path, in one pack or in any.
    func file(at path: FilePath, inPack packID: String?) throws -> URL {
        let relative = try Self.check(path)
        let packs: [String]
        if let packID {
            guard layout.installedVersion(of: packID) != nil else {
                throw ManagedBackgroundAssetsError.assetPackNotFound(withID: packID)
            }
            packs = [packID]
        } else {
            packs = layout.installedPacks().keys.sorted()
        }
        for pack in packs {
            let candidate = layout.currentLink(pack).appending(path: relative)
            var status = stat()
            if stat(candidate.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { return candidate }
        }
        throw ManagedBackgroundAssetsError.fileNotFound(at: path)
    }

    /// The URL of a file or folder, a merged view when several packs have the folder.
    func url(for path: FilePath) throws -> URL {
        let relative = try Self.check(path)
        let installed = layout.installedPacks()
        let matches = installed.keys.sorted().map { ($0, layout.currentLink($0).appending(path: relative)) }
            .filter { FileManager.default.fileExists(atPath: $0.1.path) }
        let folders = matches.filter { (try? $0.1.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        guard folders.count > 1 else {
            return matches.first?.1 ?? layout.root.appending(path: ".absent").appending(path: relative)
        }
        let key = MergedFolderViews.Key(
            relativePath: relative, packVersions: Dictionary(uniqueKeysWithValues: folders.map { ($0.0, installed[$0.0] ?? 0) }))
        return try views.view(for: key) { view in try Self.link(folders.map(\.1), into: view) }
    }

    /// Refuses an absolute path or one that climbs out of the namespace; returns it normalised.
    static func check(_ path: FilePath) throws -> String {
        guard !path.isAbsolute else {
            throw CocoaError(.fileReadInvalidFileName, userInfo: [
                NSLocalizedDescriptionKey: "The path \(path.string.debugDescription) is absolute; asset-pack paths are "
                    + "relative to the packs' shared root, as in the packaging manifest's fileSelectors.",
            ])
        }
        var components: [Substring] = []
        for component in path.string.split(separator: "/") where component != "." {
            if component == ".." {
                guard components.popLast() != nil else {
                    throw CocoaError(.fileReadInvalidFileName, userInfo: [
                        NSLocalizedDescriptionKey: "The path \(path.string.debugDescription) leaves the asset packs' shared "
                            + "root; use a path inside a pack.",
                    ])
                }
            } else {
                components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    /// Links every item of the given folders into `view`, packs in name order, the first pack
    /// winning a collision, as Apple leaves a collision's winner undefined.
    private static func link(_ folders: [URL], into view: URL) throws {
        let fileManager = FileManager.default
        var entries: [String: [URL]] = [:]
        for folder in folders {
            for name in try fileManager.contentsOfDirectory(atPath: folder.path) {
                entries[name, default: []].append(folder.appending(path: name))
            }
        }
        for (name, sources) in entries {
            let subfolders = sources.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            let destination = view.appending(path: name)
            if subfolders.count > 1 {
                try fileManager.createDirectory(at: destination, withIntermediateDirectories: false)
                try link(subfolders, into: destination)
            } else if let first = sources.first {
                try fileManager.createSymbolicLink(at: destination, withDestinationURL: first)
            }
        }
    }
}
