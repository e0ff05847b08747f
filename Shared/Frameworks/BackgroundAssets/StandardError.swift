/*
Abstract:
One-line diagnostics on standard error, for the few things the framework itself must say.
*/

import Foundation

/// Writes the framework's own diagnostics, prefixed with the process's name.
///
/// The framework has no logger of its own (the app's and the extension's `Logger` lives in a
/// module that depends on this one), and only says something when a process is about to end or
/// an answer went astray, so a line on standard error is enough.
enum StandardError {
    /// Writes one line.
    /// - Parameter line: A sentence, without the trailing newline.
    static func write(_ line: String) {
        let text = "\(ProcessInfo.processInfo.processName): \(line)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
