/*
Abstract:
The number each app's icon shows: set by the app, or by a delivered notification's badge, kept across restarts.
*/

import BackgroundAssetsIPC
import Foundation

extension NotificationStore {
    /// Sets the number an app's icon shows; 0 removes the badge.
    public func setBadge(_ count: Int, of app: String) throws {
        if count == 0 {
            try database.prepare("DELETE FROM badges WHERE app = ?").bind([.text(app)]).run()
        } else {
            try database.prepare("INSERT OR REPLACE INTO badges (app, count) VALUES (?, ?)").bind([.text(app), .int(count)]).run()
        }
    }

    /// The badges apps show, ordered by app: one app's, or every app's when `app` is `nil`.
    public func badges(app: String? = nil) throws -> [NotificationBadge] {
        let statement = if let app {
            try database.prepare("SELECT app, count FROM badges WHERE app = ?").bind([.text(app)])
        } else {
            try database.prepare("SELECT app, count FROM badges ORDER BY app")
        }
        return try statement.rows { NotificationBadge(bundleIdentifier: $0.text(0), count: $0.int(1)) }
    }
}
