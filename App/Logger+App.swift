/*
Abstract:
The app's log category.
*/

import OSLog

extension Logger {
    /// Log lines from the app, in the `app` category.
    static let app = Logger(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "app")
}
