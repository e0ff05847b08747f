/*
Abstract:
How a child process ended, decoded from the status word `waitpid` gives.
*/

/// How a child process ended: an exit code or a signal.
public enum ChildExit: Sendable, Equatable, CustomStringConvertible {
    /// The process called `exit` with this code.
    case exited(Int32)
    /// The process was ended by this signal.
    case signalled(Int32)

    /// Decodes a status word returned by `waitpid`.
    ///
    /// WIFSIGNALED and WTERMSIG are macros Swift does not import: the low seven bits hold the
    /// signal, zero for a normal exit, whose code is in the next byte.
    public init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Whether the process exited with code 0.
    public var isSuccess: Bool {
        self == .exited(0)
    }

    /// A short phrase such as "exit code 0" or "signal 9".
    public var description: String {
        switch self {
        case .exited(let code): "exit code \(code)"
        case .signalled(let signal): "signal \(signal)"
        }
    }
}
