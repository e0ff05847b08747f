/*
Abstract:
Runs a piece of code in a forked child of the test process whose descriptor limit leaves it none to open.
*/

import BackgroundAssetsIPC
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child of the test process at its descriptor limit, for code that must work there.
///
/// The child is made with `fork()`: only the calling thread goes on in it, so `body` should make
/// system calls and run code the parent has already run once (whatever it needs is then set up),
/// and allocate little. Its limit is lowered to `room` descriptors; the test process holds dozens,
/// so every descriptor below the limit is taken and nothing new can be opened.
public enum DescriptorLimitChild {
    /// How the child ended.
    public enum Outcome: Equatable, Sendable {
        /// `body` ran and gave this byte.
        case answered(UInt8)
        /// The child could not lower its limit, or could still open a file under it.
        case couldNotLimit
        /// The child did not end within the timeout, and was killed.
        case hung
        /// The child was killed by this signal before it answered.
        case killed(signal: Int32)
    }

    /// Forks, lowers the child's descriptor limit to `room`, runs `body` there, and returns what it gave.
    /// - Parameters:
    ///   - room: The child's soft limit of descriptors.
    ///   - timeout: How long the child may take before it is killed.
    ///   - body: What the child runs; its byte is the answer.
    public static func run(room: rlim_t, timeout: Duration = .seconds(30), _ body: () -> UInt8) async throws -> Outcome {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw TestSupportError("Could not make a pipe: \(errnoText()).") }
        defer { pipeEnds.forEach { close($0) } }
        let child = fork()
        guard child >= 0 else { throw TestSupportError("Could not fork: \(errnoText()).") }
        if child == 0 {
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = room
            var answer: UInt8 = 0
            let limited = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && open("/dev/null", O_RDONLY) < 0
            if limited { answer = body() }
            _ = write(pipeEnds[1], &answer, 1)
            _exit(limited ? 0 : 1)
        }
        var status: Int32 = 0
        let ended = try? await poll(timeout: timeout, "the child at its descriptor limit to end") { () -> Bool? in
            waitpid(child, &status, WNOHANG) == child ? true : nil
        }
        guard ended != nil else {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            return .hung
        }
        let signal = status & 0x7f
        if signal != 0 { return .killed(signal: signal) }
        if (status >> 8) & 0xff != 0 { return .couldNotLimit }
        var answer: UInt8 = 0
        guard read(pipeEnds[0], &answer, 1) == 1 else { throw TestSupportError("The child ended without an answer.") }
        return .answered(answer)
    }
}
