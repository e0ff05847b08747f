/*
Abstract:
A test-only client that takes BADownloadManager's exclusive control and reports when it held it.
*/

import BackgroundAssets
import Dispatch
import Foundation

/// `exclusive-control-probe HOLD_MS [--crash]`: waits for exclusive control, prints `enter NS`, holds
/// it for HOLD_MS, prints `exit NS` and returns (or, with `--crash`, dies holding it). NS is
/// CLOCK_MONOTONIC in nanoseconds, comparable across the processes of one machine.
@main
struct ExclusiveControlProbe {
    static func main() {
        let options = ProbeOptions.parseOrExit()
        // Readiness: the test starts the next probe only once this one has asked for control.
        say("waiting \(now())")
        let done = DispatchSemaphore(value: 0)
        BADownloadManager.shared.withExclusiveControl { acquired, error in
            guard acquired else {
                say("error \(error.map { "\($0)" } ?? "unknown")")
                exit(1)
            }
            say("enter \(now())")
            usleep(options.hold * 1000)
            if options.crash { kill(getpid(), SIGKILL) }
            say("exit \(now())")
            done.signal()
        }
        done.wait()
        // Give the asynchronous release a moment to leave; closing the connection releases it anyway.
        usleep(50_000)
        exit(0)
    }

    /// Writes a line unbuffered, so the test sees it even when the probe is killed right after.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
