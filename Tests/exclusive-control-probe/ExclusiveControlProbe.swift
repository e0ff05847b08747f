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
        // Blocked before the framework or Swift's concurrency start a thread, so every thread
        // inherits the mask and the signal waits for sigwait instead of ending the process.
        var release = sigset_t()
        sigemptyset(&release)
        sigaddset(&release, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &release, nil)
        let signals = release
        // Detached: main runs on the main actor, whose thread waits below. Not dispatchMain(): it
        // unblocks the main thread's signals, and SIGUSR1 would end the probe.
        Task.detached {
            await probe(options, releasedBy: signals)
        }
        DispatchSemaphore(value: 0).wait()
    }

    /// Asks for control, holds it as told, and exits once the service has handled its release.
    static func probe(_ options: ProbeOptions, releasedBy signals: sigset_t) async {
        // Readiness: the test starts the next probe only once this one has asked for control.
        say("waiting \(now())")
        do {
            try await BADownloadManager.shared.withExclusiveControl {
                say("enter \(now())")
                switch options.hold {
                case let .milliseconds(hold):
                    usleep(hold * 1000)
                case .untilSignal:
                    var signals = signals
                    var received: Int32 = 0
                    sigwait(&signals, &received)
                }
                if options.crash { kill(getpid(), SIGKILL) }
                say("exit \(now())")
            }
        } catch {
            say("error \(error)")
            exit(1)
        }
        // Control was released as the closure returned. The service answers one connection's
        // requests in order, so once a later request is answered the release has been handled and
        // traced as the app's own, rather than left to the connection's close.
        _ = try? BADownloadManager.shared.fetchCurrentDownloads()
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
