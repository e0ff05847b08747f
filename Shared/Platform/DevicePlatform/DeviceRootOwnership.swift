/*
Abstract:
Refuses a device root that belongs to another user, or that is reached through a link someone else could change.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Checks that a device root is the running user's own before anything is written into it.
///
/// The service writes its queue, log and trace, and every app's files, into the device root, and
/// makes them private to its user. A folder prepared by another user (in `/tmp`, where anyone can)
/// would have the service write its data where that user can read it, or, through a symbolic link
/// that user owns, change the mode of and write into a folder elsewhere. So the device root and the
/// folders the service keeps in it must be real folders (never symbolic links) owned by the
/// running user, and every folder above the root must belong to that user or to root, or be a
/// sticky folder such as `/tmp`, where another user cannot replace what is not theirs.
public enum DeviceRootOwnership {
    /// Why a device root cannot be used, in a sentence that names whose it is and what to do.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Checks the device root and the folders above it; a root that does not exist yet passes.
    /// - Parameters:
    ///   - paths: The device root.
    ///   - user: The user the folders must belong to; this process's effective user by default.
    /// - Throws: ``Refusal``.
    public static func checkRoot(_ paths: DevicePaths, user: uid_t = geteuid()) throws(Refusal) {
        let root = paths.root.standardizedFileURL.path
        var prefix = ""
        for component in root.split(separator: "/") {
            prefix += "/" + component
            var status = stat()
            guard lstat(prefix, &status) == 0 else { return }
            let isRoot = prefix == root
            if status.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: prefix)) ?? "?"
                if isRoot {
                    throw Refusal(description: "The device root \(prefix) is a symbolic link (to \(target)), which "
                        + "someone could point elsewhere. Set BA_DEVICE_ROOT to the folder itself.")
                }
                guard status.st_uid == user || status.st_uid == 0 else {
                    throw Refusal(description: "The device root \(root) is reached through \(prefix), a symbolic link "
                        + "(to \(target)) that belongs to \(name(of: status.st_uid)), who could point it elsewhere. "
                        + "Set BA_DEVICE_ROOT to a folder of your own that is not reached through another user's link.")
                }
                continue
            }
            if isRoot {
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw Refusal(description: "The device root \(root) is not a folder. Remove it, or set BA_DEVICE_ROOT to a folder.")
                }
                try requireOwned(prefix, status, by: user, what: "The device root \(root)")
            } else if status.st_uid != user, status.st_uid != 0, status.st_mode & S_ISVTX == 0 {
                throw Refusal(description: "The device root \(root) is inside \(prefix), which belongs to "
                    + "\(name(of: status.st_uid)), who could replace it. Set BA_DEVICE_ROOT to a folder under one of your own.")
            }
        }
    }

    /// Checks the folders the service keeps in the device root, once they exist.
    /// - Parameters:
    ///   - paths: The device root.
    ///   - user: The user the folders must belong to.
    /// - Throws: ``Refusal`` for a folder that is a symbolic link, not a folder, or another user's.
    public static func checkFolders(_ paths: DevicePaths, user: uid_t = geteuid()) throws(Refusal) {
        for folder in [paths.runDirectory, paths.systemDirectory, paths.stagingDirectory, paths.appsDirectory,
                       paths.containersDirectory] {
            var status = stat()
            guard lstat(folder.path, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path)) ?? "?"
                throw Refusal(description: "\(folder.path) is a symbolic link (to \(target)); the service never "
                    + "follows links in its device root. Remove the link, or use another device root with BA_DEVICE_ROOT.")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw Refusal(description: "\(folder.path) is not a folder. Remove it, or use another device root with BA_DEVICE_ROOT.")
            }
            try requireOwned(folder.path, status, by: user, what: folder.path)
        }
    }

    private static func requireOwned(_ path: String, _ status: stat, by user: uid_t, what: String) throws(Refusal) {
        guard status.st_uid == user else {
            throw Refusal(description: "\(what) belongs to \(name(of: status.st_uid)), not to \(name(of: user)), who runs the service: "
                + "the service keeps its queue, log and apps' files only in a folder of your own. Set BA_DEVICE_ROOT "
                + "to another folder, or remove \(path) if nobody uses it.")
        }
    }

    /// A user as people know it: "nobody (uid 65534)".
    static func name(of user: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1024)
        guard getpwuid_r(user, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return "user \(user)"
        }
        return "\(String(cString: name)) (uid \(user))"
    }
}
