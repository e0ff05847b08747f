/*
Abstract:
How a child process ended: an exit code or a signal.
*/

/// How a child process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// The process called `exit` with this code.
    case exited(Int32)
    /// The process was ended by this signal.
    case signalled(Int32)

    /// Decodes a status word returned by `waitpid`.
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        if signal == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signalled(signal)
        }
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
