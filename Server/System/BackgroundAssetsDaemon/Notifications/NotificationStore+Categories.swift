/*
Abstract:
Each app's notification categories, kept as the app last set them.
*/

import BackgroundAssetsIPC
import Foundation

extension NotificationStore {
    /// Replaces an app's categories; an empty set removes them.
    public func setCategories(_ categories: [NotificationCategoryDescriptor], of app: String) throws {
        guard !categories.isEmpty else {
            return try database.prepare("DELETE FROM categories WHERE app = ?").bind([.text(app)]).run()
        }
        let json = String(decoding: try JSONEncoder().encode(categories), as: UTF8.self)
        try database.prepare("INSERT OR REPLACE INTO categories (app, categories) VALUES (?, ?)").bind([.text(app), .text(json)]).run()
    }

    /// An app's categories; none when it set none, or when what is stored cannot be read.
    public func categories(of app: String) throws -> [NotificationCategoryDescriptor] {
        let stored = try database.prepare("SELECT categories FROM categories WHERE app = ?").bind([.text(app)]).rows { $0.text(0) }
        guard let json = stored.first else { return [] }
        return (try? JSONDecoder().decode([NotificationCategoryDescriptor].self, from: Data(json.utf8))) ?? []
    }
}
