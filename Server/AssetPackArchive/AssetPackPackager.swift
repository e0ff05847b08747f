/*
Abstract:
Packages a folder into an asset pack as a packaging manifest selects it: what `ba-package` does.
*/

import AssetPackFormat
import Foundation

/// Turns a packaging manifest and the files it selects into an archive.
public enum AssetPackPackager {
    /// Packages a pack.
    /// - Parameters:
    ///   - manifest: The packaging manifest (`Manifest.json`).
    ///   - workingDirectory: The folder selector paths are relative to when the manifest has no
    ///     `sourceRoot`; Apple's tool uses the current directory, and so does `ba-package`.
    ///   - output: The archive to write.
    /// - Returns: The archive's header.
    /// - Throws: ``AssetPackArchiveError``: `.invalidSource` naming the manifest field or file at fault, or `.io`.
    @discardableResult
    public static func package(manifest: URL, workingDirectory: URL, output: URL) throws(AssetPackArchiveError) -> AssetPackArchiveHeader {
        guard FileManager.default.fileExists(atPath: manifest.path) else {
            throw AssetPackArchiveError(.invalidSource, path: manifest.path, problem: "does not exist; write a packaging "
                + "manifest with ba-package template -o \(manifest.lastPathComponent) and fill it in.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: manifest)
        } catch {
            throw AssetPackArchiveError(.invalidSource, path: manifest.path, problem: "cannot be read (\(error.localizedDescription)).")
        }
        let source: AssetPackSourceManifest
        do {
            source = try AssetPackSourceManifest(parsing: data, source: manifest.path)
        } catch {
            throw AssetPackArchiveError(.invalidSource, path: manifest.path,
                                        problem: (error.field.map { "\($0): " } ?? "") + error.problem)
        }
        var selection = Selection(root: try root(of: source, manifest: manifest, workingDirectory: workingDirectory),
                                  rootName: source.sourceRoot == nil ? "the folder ba-package runs in" : "sourceRoot")
        for (index, selector) in source.fileSelectors.enumerated() {
            switch selector {
            case let .file(path): try selection.addFile(path, field: "fileSelectors[\(index)].file", manifest: manifest)
            case let .directory(path): try selection.addDirectory(path, field: "fileSelectors[\(index)].directory", manifest: manifest)
            }
        }
        let identity = AssetPackArchiveWriter.Identity(
            assetPackID: source.assetPackID, version: source.version, downloadPolicy: source.downloadPolicy,
            platforms: source.platforms, userInfo: source.userInfo)
        return try AssetPackArchiveWriter.write(identity: identity, directories: selection.directories,
                                                sources: selection.files, to: output)
    }

    /// The folder the selectors' paths resolve against: `sourceRoot`, relative to the manifest's own
    /// folder so a manifest kept beside its sources packages the same from anywhere, or the working directory.
    private static func root(of source: AssetPackSourceManifest, manifest: URL,
                             workingDirectory: URL) throws(AssetPackArchiveError) -> URL {
        guard let sourceRoot = source.sourceRoot else { return workingDirectory }
        let folder = sourceRoot.hasPrefix("/")
            ? URL(fileURLWithPath: sourceRoot, isDirectory: true)
            : URL(fileURLWithPath: sourceRoot, isDirectory: true, relativeTo: manifest.deletingLastPathComponent())
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AssetPackArchiveError(.invalidSource, path: manifest.path, problem: "sourceRoot: names \(folder.path), "
                + "which is not a folder; it is relative to the manifest's folder, \(manifest.deletingLastPathComponent().path).")
        }
        return folder.standardizedFileURL
    }
}

/// The files and folders the selectors name, each once, in a stable order.
private struct Selection {
    let root: URL
    /// How messages name the root: the folder ba-package runs in, or sourceRoot.
    let rootName: String
    private(set) var files: [AssetPackArchiveWriter.Source] = []
    private(set) var directories: [String] = []
    private var seen: Set<String> = []

    init(root: URL, rootName: String) {
        self.root = root
        self.rootName = rootName
    }

    mutating func addFile(_ path: String, field: String, manifest: URL) throws(AssetPackArchiveError) {
        switch kind(of: path) {
        case .regularFile: addParents(of: path); add(file: path)
        case .missing: throw problem(manifest, field, "names \(path), which does not exist in \(root.path); paths are "
            + "relative to \(rootName).")
        case .directory: throw problem(manifest, field, "names the folder \(path); use \"directory\" for folders.")
        case .other: throw problem(manifest, field, unsupported(path))
        }
    }

    mutating func addDirectory(_ path: String, field: String, manifest: URL) throws(AssetPackArchiveError) {
        switch kind(of: path) {
        case .directory: addParents(of: path); try walk(path, manifest: manifest)
        case .missing: throw problem(manifest, field, "names \(path), which does not exist in \(root.path); paths are "
            + "relative to \(rootName).")
        case .regularFile: throw problem(manifest, field, "names the file \(path); use \"file\" for single files.")
        case .other: throw problem(manifest, field, unsupported(path))
        }
    }

    private mutating func walk(_ path: String, manifest: URL) throws(AssetPackArchiveError) {
        add(directory: path)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: path).path)) ?? []).sorted()
        for name in names {
            let child = "\(path)/\(name)"
            if let reason = AssetPackArchivePath.problem(with: child) {
                throw AssetPackArchiveError(.invalidSource, path: root.appending(path: child).path, problem: reason)
            }
            switch kind(of: child) {
            case .regularFile: add(file: child)
            case .directory: try walk(child, manifest: manifest)
            case .missing: continue  // removed while the folder was read
            case .other: throw AssetPackArchiveError(.invalidSource, path: root.appending(path: child).path, problem: unsupported(child))
            }
        }
    }

    private mutating func addParents(of path: String) {
        var parents: [String] = []
        var parent = Substring(path)
        while let slash = parent.lastIndex(of: "/") {
            parent = parent[..<slash]
            parents.append(String(parent))
        }
        for folder in parents.reversed() { add(directory: folder) }
    }

    private mutating func add(directory: String) {
        if seen.insert(directory).inserted { directories.append(directory) }
    }

    private mutating func add(file: String) {
        if seen.insert(file).inserted { files.append(.init(path: file, file: root.appending(path: file))) }
    }

    private enum Kind { case regularFile, directory, missing, other }

    /// What is at a path, without following a final symbolic link.
    private func kind(of path: String) -> Kind {
        var status = stat()
        guard lstat(root.appending(path: path).path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    private func unsupported(_ path: String) -> String {
        "\(path) is a symbolic link or a special file; a pack holds regular files and folders only, so copy the "
            + "file itself into place."
    }

    private func problem(_ manifest: URL, _ field: String, _ text: String) -> AssetPackArchiveError {
        AssetPackArchiveError(.invalidSource, path: manifest.path, problem: "\(field): \(text)")
    }
}
