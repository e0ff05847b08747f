/*
Abstract:
Where the system service keeps its socket, lock, pid file, and store under the device root.
*/

import Foundation

extension DevicePaths {
    /// `run/backgroundassetsd.sock`: the Unix socket clients connect to (mode 0600 in a 0700 folder).
    public var serviceSocket: URL {
        runDirectory.appending(path: "backgroundassetsd.sock", directoryHint: .notDirectory)
    }

    /// `run/backgroundassetsd.lock`: held with `flock` by the one running service of this device root.
    public var serviceLockFile: URL {
        runDirectory.appending(path: "backgroundassetsd.lock", directoryHint: .notDirectory)
    }

    /// `run/backgroundassetsd.pid`: the running service's process id, for the debug tool and tests.
    public var servicePIDFile: URL {
        runDirectory.appending(path: "backgroundassetsd.pid", directoryHint: .notDirectory)
    }

    /// `system/queue.sqlite`: the service's download queue.
    public var queueDatabase: URL {
        systemDirectory.appending(path: "queue.sqlite", directoryHint: .notDirectory)
    }

    /// The staging file of a download while it transfers.
    ///
    /// The name comes from the service's own row id, never from a client's identifier, so no
    /// identifier can steer a write outside `staging/`.
    /// - Parameter rowID: The download's row id in the queue.
    /// - Returns: `staging/ROWID.part`.
    public func stagingFile(forDownloadRow rowID: Int64) -> URL {
        stagingDirectory.appending(path: "\(rowID).part", directoryHint: .notDirectory)
    }
}
