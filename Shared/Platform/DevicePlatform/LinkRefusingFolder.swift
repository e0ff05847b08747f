/*
Abstract:
Opens a folder under the device root one component at a time, never through a symbolic link.
*/

import Foundation

/// Opens folders inside the device root that processes other than the service can change, such as an
/// app group container's interior, so a link planted in them never leads the service's writes out.
///
/// A path is resolved by the kernel all at once, following any link among its folders: a container's
/// `Library/Caches` replaced by a link to `/etc` would take a root service's rename there. Here each
/// component below the root is opened with `O_NOFOLLOW | O_DIRECTORY` from the descriptor of the one
/// before it, and the caller works with the last descriptor (`renameat`, `linkat`, `openat`), so a
/// link swapped in afterwards changes nothing either.
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
        let base = root.standardizedFileURL.pathComponents
        let target = folder.standardizedFileURL.pathComponents
        guard target.count >= base.count, Array(target.prefix(base.count)) == base else {
            throw LinkRefusingFile.Failure(path: folder.path, reason: "it is not inside the device root \(root.path)")
        }
        var descriptor = Foundation.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT, creating {
            // The root is trusted, as the path to it is: made as any folder is.
            try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            descriptor = Foundation.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw LinkRefusingFile.Failure(path: root.path, reason: "it cannot be opened (\(errnoText()))")
        }
        var path = root.standardizedFileURL
        for component in target.dropFirst(base.count) {
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

    private static func failure(at url: URL, _ code: Int32) -> LinkRefusingFile.Failure {
        if let refused = LinkRefusingFile.refusedLink(atPath: url.path) { return refused }
        if code == ENOTDIR { return LinkRefusingFile.Failure(path: url.path, reason: "it is not a folder") }
        return LinkRefusingFile.Failure(path: url.path, reason: "it cannot be opened (\(errnoText(code)))")
    }
}
