/*
Abstract:
A test-only client that takes BADownloadManager's exclusive control and reports when it held it.
*/

import BackgroundAssets
import Dispatch
import Foundation

/// `exclusive-control-probe (HOLD_MS | --until-sigusr1) [--crash]`: waits for exclusive control,
/// prints `enter NS`, holds it for HOLD_MS or until it receives SIGUSR1, prints `exit NS` and returns
/// (or, with `--crash`, dies holding it instead). NS is CLOCK_MONOTONIC in nanoseconds, comparable
/// across the processes of one machine.
///
/// Tests hold control until they send SIGUSR1, so how long a process holds it is decided by what
/// the test has seen happen, never by how fast the machine is; HOLD_MS is for people watching it.
@main
struct ExclusiveControlProbe {
    static func main() {
        let options = ProbeOptions.parseOrExit()
        // Blocked before the framework starts a thread, so every thread inherits the mask and the
        // signal waits for sigwait in the handler instead of ending the process.
        var release = sigset_t()
        sigemptyset(&release)
        sigaddset(&release, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &release, nil)
        // Readiness: the test starts the next probe only once this one has asked for control.
        say("waiting \(now())")
        let done = DispatchSemaphore(value: 0)
        BADownloadManager.shared.withExclusiveControl { acquired, error in
            guard acquired else {
                say("error \(error.map { "\($0)" } ?? "unknown")")
                exit(1)
            }
            say("enter \(now())")
            switch options.hold {
            case let .milliseconds(hold):
                usleep(hold * 1000)
            case .untilSignal:
                var received: Int32 = 0
                sigwait(&release, &received)
            }
            if options.crash { kill(getpid(), SIGKILL) }
            say("exit \(now())")
            done.signal()
        }
        done.wait()
        // Returning from the handler releases control; exiting closes the connection, which
        // releases it too, should the release not have left yet.
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
