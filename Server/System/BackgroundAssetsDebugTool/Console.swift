/*
Abstract:
Where the debug tool prints: machine-readable output on stdout, progress and errors on stderr.
*/

import Foundation

/// The tool's terminal: what it prints, where, and whether a person is watching.
public struct Console: Sendable {
    /// Whether standard input is a terminal, so a question can be asked.
    public var inputIsTerminal: Bool
    /// Whether standard output is a terminal, so a table reads better than plain lines.
    public var outputIsTerminal: Bool
    /// Whether standard error is a terminal, so a progress bar can redraw in place.
    public var errorIsTerminal: Bool
    /// Where the lines go instead of the process's streams, for a test that reads what a command printed.
    public var transcript: ConsoleTranscript?

    /// The console of this process, detecting terminals with `isatty`.
    public static var standard: Console {
        Console(inputIsTerminal: isatty(0) == 1, outputIsTerminal: isatty(1) == 1, errorIsTerminal: isatty(2) == 1)
    }

    /// Creates a console.
    /// - Parameters:
    ///   - inputIsTerminal: Whether standard input is a terminal.
    ///   - outputIsTerminal: Whether standard output is a terminal.
    ///   - errorIsTerminal: Whether standard error is a terminal.
    public init(inputIsTerminal: Bool, outputIsTerminal: Bool, errorIsTerminal: Bool) {
        self.inputIsTerminal = inputIsTerminal
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
    }

    /// Prints a line of output (results, tables, JSON) to standard output.
    public func output(_ line: String) {
        if let transcript { return transcript.append(line + "\n", to: .output) }
        Self.write(line + "\n", to: STDOUT_FILENO)
    }

    /// Prints part of the output as it is produced, without a newline: UTF-8 text too large to hold whole.
    public func outputFragment(_ utf8: [UInt8]) {
        if let transcript { return transcript.append(String(decoding: utf8, as: UTF8.self), to: .output) }
        Self.write(utf8[...], to: STDOUT_FILENO)
    }

    /// Prints a line to standard error (progress, notes, errors).
    public func error(_ line: String) {
        if let transcript { return transcript.append(line + "\n", to: .error) }
        Self.write(line + "\n", to: STDERR_FILENO)
    }

    /// Writes text to standard error without a newline, for a progress bar redrawn with `\r`.
    public func errorFragment(_ text: String) {
        if let transcript { return transcript.append(text, to: .error) }
        Self.write(text, to: STDERR_FILENO)
    }

    /// Asks a yes/no question on the terminal.
    /// - Parameter question: The question, without the `[y/N]` suffix.
    /// - Returns: Whether the person typed y or yes.
    public func confirm(_ question: String) -> Bool {
        errorFragment("\(question) [y/N] ")
        guard let answer = readLine(strippingNewline: true) else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Writes all of `text`; a reader that went away (`trace | head -1`) ends the tool quietly, as
    /// command-line tools do, instead of FileHandle's fatal error on a broken pipe.
    private static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8)[...], to: descriptor)
    }

    private static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) {
        var bytes = bytes
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
