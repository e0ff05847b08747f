/*
Abstract:
The lock file that keeps one service per device root, and the pid file beside it.
*/

import BackgroundAssetsIPC
import Foundation

/// Holds `run/.lock` for the life of the service, so a second service started for the same device
/// root (two clients racing to start one) sees it taken and exits at once.
///
/// The lock is an `flock(2)`, which the kernel drops when the process dies however it dies, so a
/// crashed service never leaves a stale lock behind.
public final class InstanceLock: Sendable {
    private let descriptor: Int32
    private let pidFile: URL

    /// Takes the lock, or returns `nil` when another live process holds it.
    /// - Parameters:
    ///   - lockFile: Usually `run/.lock`.
    ///   - pidFile: Usually `run/.pid`; written once the lock is held.
    /// - Throws: ``LinkRefusingFile/Failure`` when the lock file cannot be opened, or is a symbolic link.
    public init?(lockFile: URL, pidFile: URL) throws(LinkRefusingFile.Failure) {
        // Never through a link: as root, O_CREAT would create whatever file a link there names.
        let descriptor = try LinkRefusingFile.open(lockFile, flags: O_RDWR | O_CREAT)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.pidFile = pidFile
        // Not Data.write(options: .atomic): on Linux it leaves a folder in /tmp behind on every call.
        // The rename replaces a link planted at the pid file; it never writes through one.
        _ = AtomicFileWriter.write(Data("\(getpid())\n".utf8), to: pidFile, followingFolderLink: false)
    }

    deinit {
        unlink(pidFile.path)
        close(descriptor)
    }
}
