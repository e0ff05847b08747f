/*
Abstract:
The app group's other shared files: the server credentials, and a place for files between two steps.
*/

import Foundation

extension SharedSettings {
    /// `Library/Preferences/credentials.json` in the container: the user name and password for the
    /// asset server's protected sessions, written by whoever sets up the device (see ``ServerCredentials``).
    ///
    /// It is kept outside `Library/Caches/` because the system never removes it: it cannot be
    /// downloaded again.
    public var credentialsURL: URL {
        containerURL.appending(path: "Library/Preferences/credentials.json", directoryHint: .notDirectory)
    }

    /// A folder for files that must outlive one callback but not the work that follows it, such as a
    /// finished download waiting for exclusive control.
    ///
    /// It is inside the container, on the same file system as ``sessionsDirectory``, so moving a
    /// file in and out of it is a rename; and inside `Library/Caches/`, so anything a terminated
    /// process left behind is removed with the caches.
    public var temporaryDirectory: URL {
        cachesDirectory.appending(path: "Temporary", directoryHint: .isDirectory)
    }

    /// Loads the credentials for the asset server's protected sessions, or returns `nil` when
    /// nobody has stored any.
    /// - Throws: ``SessionKitError/invalidCredentials(path:reason:)`` when the file exists but is not usable.
    public func loadCredentials() throws -> ServerCredentials? {
        guard FileManager.default.fileExists(atPath: credentialsURL.path) else { return nil }
        return try ServerCredentials.load(from: credentialsURL)
    }
}
