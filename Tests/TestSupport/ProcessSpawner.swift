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
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        let request = SpawnRequest(
            path: path, argv: argv, environment: environmentLines,
            standardOutputPath: standardOutputPath, standardErrorPath: standardErrorPath
        )
        let outcome = Mutex<Result<pid_t, TestSupportError>?>(nil)
        let spawned = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = request.spawn()
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

/// Everything `posix_spawn` needs, prepared before the spawning thread starts.
private struct SpawnRequest: Sendable {
    let path: String
    let argv: [String]
    let environment: [String]
    let standardOutputPath: String
    let standardErrorPath: String

    #if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not show; `nil` on an older glibc.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
    #endif

    func spawn() -> Result<pid_t, TestSupportError> {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #if os(Linux)
        // Nothing else of the test process: its sockets and pipes are not all close-on-exec, and a
        // child started under a descriptor limit (prlimit --nofile) would find the low numbers taken.
        _ = Self.addCloseFrom?(&actions, 3)
        #endif

        // Start from default signal handling, as a shell would: the test runner may ignore
        // SIGPIPE or block signals, and a child inherits both.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        // Its own process group, so a ^C in the terminal reaches only the test runner, whose death
        // then takes the child with it.
        posix_spawnattr_setpgroup(&attributes, 0)
        let flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else {
            return .failure(TestSupportError("Could not start \(argv.joined(separator: " ")): \(errnoText(result))."))
        }
        return .success(pid)
    }
}
