/*
Abstract:
Starts a child with posix_spawn on a thread that lives exactly as long as the child and reaps it.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts child processes so that they die with the test process.
///
/// On Linux the child is started through `setpriv --pdeathsig KILL`, which asks the kernel to kill
/// it when its parent goes away, even if the test process is killed with SIGKILL. The kernel
/// considers the *thread* that spawned the child its parent, so each child is spawned from a
/// dedicated thread that stays blocked in `waitpid` until the child ends; that thread then
/// reports the exit status.
enum ProcessSpawner {
    private static let setpriv = "/usr/bin/setpriv"

    /// Starts `executable` and returns its process id; `onExit` is called once when it ends.
    static func spawn(
        executable: String,
        arguments: [String],
        environment: [String: String],
        currentDirectory: String?,
        standardOutputPath: String,
        standardErrorPath: String,
        onExit: @escaping @Sendable (ExitStatus) -> Void
    ) throws -> pid_t {
        var argv = [executable] + arguments
        var path = executable
        if let currentDirectory {
            // posix_spawn_file_actions_addchdir_np is not visible to Swift; env(1) changes folder, then execs.
            argv = ["/usr/bin/env", "-C", currentDirectory, "--"] + argv
            path = "/usr/bin/env"
        }
        #if os(Linux)
        if access(setpriv, X_OK) == 0 {
            argv = [setpriv, "--pdeathsig", "KILL", "--"] + argv
            path = setpriv
        }
        #endif
        let request = SpawnRequest(
            path: path, arguments: argv, environment: environment,
            standardOutputPath: standardOutputPath, standardErrorPath: standardErrorPath, ownProcessGroup: true
        )
        let outcome = Mutex<Result<pid_t, TestSupportError>?>(nil)
        let spawned = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = request.spawn().mapError { TestSupportError("Could not start \($0.command.joined(separator: " ")): \(errnoText($0.code)).") }
            outcome.withLock { $0 = result }
            spawned.signal()
            guard case .success(let pid) = result else { return }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            onExit(ExitStatus(waitStatus: status))
        }
        thread.name = "child \(URL(fileURLWithPath: executable).lastPathComponent)"
        thread.start()
        spawned.wait()
        return try outcome.withLock { try $0!.get() }
    }
}
