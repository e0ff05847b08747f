/*
Abstract:
What a console printed, kept instead of written, for tests that run a command in their own process.
*/

import Synchronization

/// The text a ``Console`` printed, by stream, when it keeps a transcript instead of writing to the
/// process's standard output and error (where a test run's results are printed).
public final class ConsoleTranscript: Sendable {
    /// The two streams of a console.
    public enum Stream: Sendable {
        case output, error
    }

    private let text = Mutex((output: "", error: ""))

    public init() {}

    /// Everything printed to standard output so far.
    public var output: String { text.withLock { $0.output } }

    /// Everything printed to standard error so far.
    public var error: String { text.withLock { $0.error } }

    func append(_ printed: String, to stream: Stream) {
        text.withLock { text in
            switch stream {
            case .output: text.output += printed
            case .error: text.error += printed
            }
        }
    }
}

extension Console {
    /// A console without terminals that keeps what it prints in a transcript.
    /// - Parameter transcript: Where the printed text goes.
    public static func recording(into transcript: ConsoleTranscript) -> Console {
        var console = Console(inputIsTerminal: false, outputIsTerminal: false, errorIsTerminal: false)
        console.transcript = transcript
        return console
    }
}
