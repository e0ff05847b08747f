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

    /// The pending Background Tasks requests, `system/tasks.sqlite`.
    public var taskDatabase: URL {
        systemDirectory.appending(path: "tasks.sqlite", directoryHint: .notDirectory)
    }

    /// `system/notifications.sqlite`: every app's notification answer, pending requests and delivered notifications.
    public var notificationDatabase: URL {
        systemDirectory.appending(path: "notifications.sqlite", directoryHint: .notDirectory)
    }

    /// `system/asset-packs.sqlite`: the apps' managed asset packs, created when the first one is kept.
    public var assetPackDatabase: URL {
        systemDirectory.appending(path: "asset-packs.sqlite", directoryHint: .notDirectory)
    }

    /// `system/url-sessions.sqlite`: every app's background URL sessions.
    public var urlSessionDatabase: URL {
        systemDirectory.appending(path: "url-sessions.sqlite", directoryHint: .notDirectory)
    }

    /// `system/config.json`: the service's policy knobs, each with a default when absent.
    public var serviceConfigurationFile: URL {
        systemDirectory.appending(path: "config.json", directoryHint: .notDirectory)
    }

    /// `system/settings.json`: the simulated device's settings (low-power mode, background refresh).
    public var deviceSettingsFile: URL {
        systemDirectory.appending(path: "settings.json", directoryHint: .notDirectory)
    }

    /// `system/crashed`: left by a service that crashed, naming the signal and the thread, so the
    /// next one can set aside a download that crashes it every time.
    public var crashMarkerFile: URL {
        systemDirectory.appending(path: "crashed", directoryHint: .notDirectory)
    }

    /// `system/crash-history`: when the service last crashed, so repeated crashes that no download
    /// explains pause its work instead of looping.
    public var crashHistoryFile: URL {
        systemDirectory.appending(path: "crash-history", directoryHint: .notDirectory)
    }

    /// `system/trace.jsonl`: one JSON line for every cross-process event.
    public var traceFile: URL {
        systemDirectory.appending(path: "trace.jsonl", directoryHint: .notDirectory)
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

    /// The path of ``stagingFile(forDownloadRow:)``, joined as a string: what the system calls on
    /// the file take, without a URL to build and read back for each.
    public func stagingFilePath(forDownloadRow rowID: Int64) -> String {
        "\(stagingDirectory.path)/\(rowID).part"
    }
}
