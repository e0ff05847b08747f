/*
Abstract:
The extension's log category.
*/

import OSLog

extension Logger {
    /// Log lines from the managed downloader extension, in the `ext` category.
    static let ext = Logger(subsystem: "com.example.apple-samplecode.WWDC-Slides", category: "ext")
}
