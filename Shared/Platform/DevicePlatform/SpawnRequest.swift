/*
Abstract:
One posix_spawn of a child process: its arguments, environment, standard files, and a clean start.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything `posix_spawn` needs to start a child, prepared before the call.
///
/// The child starts as a shell would start it: default handling for the signals a parent may ignore
/// or block (SIGPIPE above all), an empty signal mask, standard input from `/dev/null`, and no
/// descriptor of the parent beyond its standard output and error. Spawning opens nothing in the
/// parent, so it works, or fails with a clear error, at the parent's descriptor limit; Foundation's
/// `Process.run()` made a run loop on the calling thread first, which at the limit halts the process.
public struct SpawnRequest: Sendable {
    /// The executable's path.
    public var path: String
    /// The arguments, the program's name first.
    public var arguments: [String]
    /// The whole environment, as `NAME=value` lines.
    public var environment: [String]
    /// A file for the child's standard output, created or emptied; `nil` shares the parent's.
    public var standardOutputPath: String?
    /// A file for the child's standard error, created or emptied; `nil` shares the parent's.
    public var standardErrorPath: String?
    /// Whether the child leads a process group of its own, so a ^C at the terminal reaches only the parent.
    public var ownProcessGroup: Bool

    public init(
        path: String, arguments: [String], environment: [String: String],
        standardOutputPath: String? = nil, standardErrorPath: String? = nil, ownProcessGroup: Bool = false
    ) {
        self.path = path
        self.arguments = arguments
        self.environment = environment.map { "\($0.key)=\($0.value)" }
        self.standardOutputPath = standardOutputPath
        self.standardErrorPath = standardErrorPath
        self.ownProcessGroup = ownProcessGroup
    }

    #if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not show; `nil` on an older glibc.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
    #endif

    /// Starts the child.
    /// - Returns: Its process id, or the `errno` that kept it from starting (`ENOENT`, `EACCES`,
    ///   `EMFILE` when the child could not open its standard files, `EAGAIN` at the process limit).
    public func spawn() -> Result<pid_t, SpawnFailure> {
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
        #if os(Linux)
        // Nothing else of the parent, first: its sockets and pipes are not all close-on-exec, and a
        // child of a parent at its descriptor limit finds room for its standard files only so.
        _ = Self.addCloseFrom?(&actions, 3)
        #endif
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let standardOutputPath {
            posix_spawn_file_actions_addopen(&actions, 1, standardOutputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        if let standardErrorPath {
            posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }

        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else { return .failure(SpawnFailure(command: arguments, code: result)) }
        return .success(pid)
    }
}

/// Why a child did not start: the command and the `errno` that `posix_spawn` gave.
public struct SpawnFailure: Error, Sendable, CustomStringConvertible {
    /// The command, the program's name first.
    public var command: [String]
    /// The `errno` value.
    public var code: Int32

    public init(command: [String], code: Int32) {
        self.command = command
        self.code = code
    }

    public var description: String {
        "could not start \(command.joined(separator: " ")): \(errnoText(code))"
    }
}
