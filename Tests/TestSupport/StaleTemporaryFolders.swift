/*
Abstract:
Removes the temporary folders of test processes that crashed or were killed before they could remove them.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary folders whose test process is gone.
///
/// A test that crashes cannot clean up after itself: its child processes die with it (they are
/// started with a parent-death signal, see `ProcessSpawner`), but its folders stay. Every
/// ``TemporaryDirectory`` is named after the process that made it, so the next test process
/// removes the folders of processes that no longer exist. A folder is removed only when it is a
/// directory owned by this user, its name has the form `PREFIX-tPID.XXXXXX`, and no process PID
/// exists; a live test run's folders are never touched.
public enum StaleTemporaryFolders {
    /// The `mkdtemp` template of a new folder's name: the prefix, this process's id, six random characters.
    /// - Parameter prefix: The start of the folder's name.
    static func name(prefix: String) -> String {
        "\(prefix)-t\(getpid()).XXXXXX"
    }

    /// The process id a folder's name records, or nil when the name is not one ``name(prefix:)`` made.
    /// - Parameter folderName: A folder's last path component.
    public static func owner(ofFolderNamed folderName: String) -> pid_t? {
        // PREFIX-tPID.XXXXXX: the six characters mkdtemp chose, after the last dot.
        let parts = folderName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.last?.count == 6,
              let marker = parts[parts.count - 2].range(of: "-t", options: .backwards)
        else { return nil }
        let digits = parts[parts.count - 2][marker.upperBound...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let pid = pid_t(digits), pid > 0
        else { return nil }
        return pid
    }

    /// Removes the stale folders once per test process; later calls do nothing.
    public static func removeOnce() {
        _ = sweep
    }

    private static let sweep: Void = {
        removeStale(in: URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true))
    }()

    /// Removes the folders in `folder` whose name records a process that no longer exists.
    /// - Parameter folder: The folder to look in; the system's temporary directory for ``removeOnce()``.
    public static func removeStale(in folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            guard let pid = owner(ofFolderNamed: name), pid != getpid(), !processExists(pid) else { continue }
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Whether a process exists; one that exists but belongs to another user counts as existing.
    private static func processExists(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
