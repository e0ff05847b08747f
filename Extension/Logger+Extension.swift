/*
Abstract:
The extension's log category.
*/

import OSLog

extension Logger {
    /// Log lines from the downloader extension, in the `ext` category.
    static let ext = Logger(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "ext")
}
