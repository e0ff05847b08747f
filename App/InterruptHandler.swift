/*
Abstract:
Ends the app cleanly on Ctrl-C and SIGTERM: the terminal is restored before the process exits.
*/

import Dispatch
import Foundation

/// Catches SIGINT and SIGTERM and hands them to a closure that ends the process.
///
/// Keep the value alive for as long as the signals should be caught.
final class InterruptHandler: Sendable {
    // Dispatch sources are thread-safe; the array itself never changes after init.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    /// Starts catching the signals.
    /// - Parameter handler: Called once on a background thread with the signal's number; it must exit.
    init(_ handler: @escaping @Sendable (Int32) -> Never) {
        sources = [SIGINT, SIGTERM].map { signalNumber in
            // The default action would end the process at once, with the cursor hidden.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            return source
        }
    }
}
