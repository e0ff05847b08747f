/*
Abstract:
Which system the sessions Foundation's unchanged initialiser makes talk to: this device's service, or a test's stand-in.
*/

import Synchronization

/// The system behind `URLSession(configuration:delegate:delegateQueue:)` for a background configuration.
///
/// An app always gets the device's service. A test of this package that checks the unchanged
/// initialiser line hands it a system of its own, so it starts no service in the device root of
/// the folder the tests run in (the package's own working copy).
package enum BackgroundURLSessionSystem {
    private static let replacement = Mutex<(any BackgroundURLSessionService)?>(nil)

    /// The system new sessions attach to.
    package static var current: any BackgroundURLSessionService {
        replacement.withLock { $0 } ?? SystemURLSessionService.shared
    }

    /// Runs `body` with sessions made by the unchanged initialiser attached to `service`.
    /// - Parameters:
    ///   - service: The system to use instead of the device's service.
    ///   - body: The code that makes the sessions.
    /// - Returns: What `body` returns.
    package static func using<T>(_ service: any BackgroundURLSessionService, _ body: () throws -> T) rethrows -> T {
        replacement.withLock { $0 = service }
        defer { replacement.withLock { $0 = nil } }
        return try body()
    }
}
