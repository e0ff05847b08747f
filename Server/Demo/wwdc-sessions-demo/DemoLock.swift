/*
Abstract:
One demo per device root: a lock the running demo holds, and what a second one is told.
*/

import BackgroundAssetsIPC
import Foundation

/// The lock that keeps a second demo off a device root while one runs there.
///
/// A second demo on the same root would uninstall the first one's app, install it again and stop
/// its asset server, so both would fail in ways that name neither; it is refused at once instead.
enum DemoLock {
    /// Takes the device root's demo lock for the life of this process.
    /// - Parameter paths: The device root.
    /// - Throws: ``DemoError`` naming the running demo and what to do, when another one holds the lock.
    static func acquire(in paths: DevicePaths) throws {
        let folder = paths.root.appending(path: "demo", directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DemoError("Could not create \(folder.path): \(error.localizedDescription). Check the device root's permissions.")
        }
        let file = folder.appending(path: ".lock").path
        // Kept open, never closed: the lock lasts exactly as long as this process, however it ends.
        let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw DemoError("Could not open \(file): \(String(cString: strerror(errno))). Check the device root's permissions.")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            let who = holder.flatMap(Int32.init).map { "Another wwdc-sessions-demo (pid \($0))" } ?? "Another wwdc-sessions-demo"
            throw DemoError("""
                \(who) is running on the device root \(paths.root.path). Wait for it to end, or stop it with \
                Ctrl-C in its terminal. To run a second demo beside it, give it a device root and a port of its own: \
                BA_DEVICE_ROOT=/tmp/second-device swift run wwdc-sessions-demo --port 0 --catalog /tmp/second-catalog
                """)
        }
        let pid = Data("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}
