/*
Abstract:
The backgroundassetsd executable: the Background Assets system service for one device root.
*/

import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import ServerRuntime
import Synchronization

@main
struct BackgroundAssetsDaemonCommand {
    static func main() {
        // Before any thread starts (main is synchronous so that the concurrency runtime's threads
        // start later and inherit the mask): only the wait below receives them.
        let stopSignals = StopSignals.blockInEveryThread()
        signal(SIGPIPE, SIG_IGN)
        // Two heap arenas, set before any thread allocates: each transfer thread would otherwise keep
        // an arena of its own with what it freed (see HeapArenas).
        HeapArenas.limit(to: 2)
        // Everything the service creates (queue, log, trace, staging, containers) is the owner's only.
        umask(DeviceRootPrivacy.fileCreationMask)

        let foreground = DaemonOptions.parseOrExit().foreground

        let paths = DevicePaths.current()
        if foreground { print("backgroundassetsd: device root \(paths.root.path)") }
        let stop = Stop()
        // Detached: main() runs on the main actor, whose thread stays parked in sigwait below.
        Task.detached {
            let code = await ServiceRunner(paths: paths, foreground: foreground).run { stop.flag.withLock { $0 } }
            exit(code.rawValue)
        }
        stopSignals.wait()
        stop.flag.withLock { $0 = true }
        // The service notices within a fraction of a second, shuts down, and exits the process.
        while true { sleep(60) }
    }
}

/// Set by the signal thread, read by the service's loop.
final class Stop: Sendable {
    let flag = Mutex(false)
}
