/*
Abstract:
The extension's entry point: connect to the system, run the entry points it calls, exit when told.
*/

import Foundation

extension BADownloaderExtension {
    /// Runs the extension: connects to the system service, runs each entry point it is asked
    /// for, and exits after `extensionWillTerminate()`.
    ///
    /// Started by a person rather than the system, it explains how to trigger it and exits with 64.
    public static func main() {
        // Completed by the extension host work; see ExtensionRunner.
        fatalError("not yet implemented")
    }
}
