/*
Abstract:
The terminal the app draws on: whether there is one, how wide it is, and the escape sequences it understands.
*/

import Foundation

/// The terminal on standard output, if there is one.
enum Terminal {
    /// Whether standard output is a terminal that understands cursor movement.
    static var isInteractive: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// The terminal's width in columns, or 100 when it can't be told.
    static var columns: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 100
    }

    /// Writes text to a file descriptor in one piece, so a frame is never torn by another writer.
    /// - Parameters:
    ///   - text: The text.
    ///   - descriptor: Standard output unless told otherwise.
    static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        try? handle.write(contentsOf: Data(text.utf8))
    }

    // MARK: - Escape sequences

    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    /// Clears the line the cursor is on.
    static let clearLine = "\u{1B}[2K"
    /// Clears from the cursor to the end of the screen.
    static let clearToEnd = "\u{1B}[J"
    static let green = "\u{1B}[32m"
    static let red = "\u{1B}[31m"
    static let dim = "\u{1B}[2m"
    static let bold = "\u{1B}[1m"
    static let reset = "\u{1B}[0m"

    /// Moves the cursor to the start of the line `count` lines up.
    static func cursorUp(_ count: Int) -> String {
        count > 0 ? "\u{1B}[\(count)F" : "\r"
    }
}
