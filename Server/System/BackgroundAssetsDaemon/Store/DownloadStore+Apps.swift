/*
Abstract:
What the store forgets when an app goes: every row of its downloads, ended ones included.
*/

import Foundation

extension DownloadStore {
    /// Deletes every download of an app, whatever its state; for `uninstall`, after running ones are cancelled.
    /// - Parameter bundleIdentifier: The app.
    /// - Returns: The number of rows deleted.
    @discardableResult
    public func deleteDownloads(ofApp bundleIdentifier: String) throws -> Int {
        try withDatabase { database in
            try database.prepare("DELETE FROM downloads WHERE app_bundle_id = ?").bind([.text(bundleIdentifier)]).run()
            return database.changedRowCount
        }
    }
}
