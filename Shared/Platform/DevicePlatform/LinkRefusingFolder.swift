/*
Abstract:
Opens a folder under the device root one component at a time, never through a symbolic link.
*/

import CConfinedOpen
import Foundation

/// Opens folders inside the device root that processes other than the service can change, such as an
/// app group container's interior, so a link planted in them never leads the service's writes out.
///
/// A path is resolved by the kernel all at once, following any link among its folders: a container's
/// `Library/Caches` replaced by a link to `/etc` would take a root service's rename there. Here each
/// component below the root is opened with `O_NOFOLLOW | O_DIRECTORY` from the descriptor of the one
/// before it, and the caller works with the last descriptor (`renameat`, `linkat`, `openat`), so a
/// link swapped in afterwards changes nothing either. Where the kernel can, a folder that is there is
/// opened in one call instead (`openat2` beneath the root with `RESOLVE_NO_SYMLINKS`), which refuses a
/// link at any component just the same.
public enum LinkRefusingFolder {
    /// Opens a folder under `root`, refusing a link at any component below the root.
    /// - Parameters:
    ///   - folder: The folder; it must lie under `root`.
    ///   - root: The trusted folder it is resolved from (the device root).
    ///   - creating: Whether missing components are created (mode 0755), the root included.
    /// - Returns: The folder's descriptor, which the caller closes.
    /// - Throws: ``LinkRefusingFile/Failure`` naming the component that is a link, is missing, or is
    ///   not a folder, or naming `folder` when it does not lie under `root`.
    public static func open(_ folder: URL, under root: URL, creating: Bool) throws(LinkRefusingFile.Failure) -> Int32 {
        let rootPath = root.path
        let components = try components(of: folder, under: root, rootPath: rootPath)
        var descriptor = Foundation.open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0, let folder = openWithoutLinks(components, beneath: descriptor) {
            close(descriptor)
            return folder
        }
        if descriptor < 0, errno == ENOENT, creating {
            // The root is trusted, as the path to it is: made as any folder is.
            try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            descriptor = Foundation.open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw LinkRefusingFile.Failure(path: rootPath, reason: "it cannot be opened (\(errnoText()))")
        }
        var path = root.standardizedFileURL
        for component in components {
            path.append(path: component, directoryHint: .isDirectory)
            guard component != "..", component != "." else {
                close(descriptor)
                throw LinkRefusingFile.Failure(path: path.path, reason: "a path inside the device root may not use '..'")
            }
            var next = openat(descriptor, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, creating {
                // Another process may create it meanwhile: EEXIST is as good as success.
                if mkdirat(descriptor, component, 0o755) == 0 || errno == EEXIST {
                    next = openat(descriptor, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                }
            }
            let code = errno
            close(descriptor)
            guard next >= 0 else { throw failure(at: path, code) }
            descriptor = next
        }
        return descriptor
    }

    /// The components of `folder` below `root`, whose path the caller has already read.
    ///
    /// A folder spelled as the root's path and plain names after it (every hand-over's) is split as
    /// it is; any other spelling is standardised first, which cost a hand-over more than its rename.
    private static func components(
        of folder: URL, under root: URL, rootPath: String
    ) throws(LinkRefusingFile.Failure) -> ArraySlice<String> {
        var folderPath = folder.path
        if folderPath.count > 1, folderPath.hasSuffix("/") { folderPath.removeLast() }
        if rootPath != "/", folderPath.hasPrefix(rootPath + "/") {
            let names = folderPath.dropFirst(rootPath.count + 1).split(separator: "/", omittingEmptySubsequences: false)
            if !names.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) { return ArraySlice(names.map(String.init)) }
        }
        let base = root.standardizedFileURL.pathComponents
        let target = folder.standardizedFileURL.pathComponents
        guard target.count >= base.count, Array(target.prefix(base.count)) == base else {
            throw LinkRefusingFile.Failure(path: folder.path, reason: "it is not inside the device root \(rootPath)")
        }
        return target.dropFirst(base.count)
    }

    /// The folder opened in one call, the kernel refusing a link at any component and any way out
    /// of the root (`openat2`), or `nil` when that call cannot tell: a component is missing (and may
    /// be created), is a link or not a folder (the walk names which), or the kernel has no `openat2`.
    /// The walk then decides, with the same outcome for every path; a hand-over opens its folder so
    /// for every file, and the walk took twelve calls.
    private static func openWithoutLinks(_ components: ArraySlice<String>, beneath root: Int32) -> Int32? {
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." || $0.utf8.contains(UInt8(ascii: "/")) }) else { return nil }
        let descriptor = components.joined(separator: "/").withCString {
            confined_open_without_links(root, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        return descriptor >= 0 ? descriptor : nil
    }

    private static func failure(at url: URL, _ code: Int32) -> LinkRefusingFile.Failure {
        if let refused = LinkRefusingFile.refusedLink(atPath: url.path) { return refused }
        if code == ENOTDIR { return LinkRefusingFile.Failure(path: url.path, reason: "it is not a folder") }
        return LinkRefusingFile.Failure(path: url.path, reason: "it cannot be opened (\(errnoText(code)))")
    }
}
