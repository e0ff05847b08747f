/*
Abstract:
Stops the running service of a device root and takes its instance lock, so none can start meanwhile.
*/

import BackgroundAssetsIPC
import Foundation

/// Stops `backgroundassetsd` the way an administrator would: SIGTERM to the pid in its pid file,
/// then wait until its `flock` on the lock file is released.
struct ServiceStopper {
    /// The service's lock, held by the tool; release it when done.
    final class HeldLock: Sendable {
        let descriptor: Int32

        init(descriptor: Int32) { self.descriptor = descriptor }

        /// Releases the lock so a service may start again.
        func release() { close(descriptor) }
    }

    var paths: DevicePaths

    /// Stops the service if one runs, and returns its lock held by this process.
    /// - Parameter timeout: How long the service may take to exit after SIGTERM.
    /// - Returns: The lock; while it is held, no service can start on this device root.
    /// - Throws: ``DebugToolError`` when the lock cannot be opened or the service does not stop in time.
    func stopAndLock(timeout: Duration) async throws -> HeldLock {
        try FileManager.default.createDirectory(at: paths.runDirectory, withIntermediateDirectories: true)
        let descriptor: Int32
        do {
            descriptor = try LinkRefusingFile.open(paths.serviceLockFile, flags: O_RDWR | O_CREAT)
        } catch {
            throw DebugToolError(error.isLink ? error.description
                : "\(error.path) cannot be used: \(error.reason); check that the device root is writable.")
        }
        let lock = HeldLock(descriptor: descriptor)
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return lock }

        // A service holds the lock: ask it to stop, then wait for the lock to come free.
        let pid = servicePID()
        if let pid { kill(pid, SIGTERM) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else {
                lock.release()
                let who = pid.map { "pid \($0)" } ?? "whose pid file \(paths.servicePIDFile.path) is missing"
                throw DebugToolError("backgroundassetsd (\(who)) did not stop within \(timeout) of SIGTERM; "
                    + "stop it with kill -9 and run reset again.")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return lock
    }

    /// The pid the running service wrote, or `nil` when the file is missing or unreadable.
    private func servicePID() -> pid_t? {
        guard let text = try? String(contentsOf: paths.servicePIDFile, encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 > 0 ? $0 : nil }
    }
}
