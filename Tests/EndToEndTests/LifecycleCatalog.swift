/*
Abstract:
The generated catalog's sessions as the lifecycle tests see them: identifier, path, size, and whether essential.
*/

import Foundation

/// One session of the asset server's generated catalog.
struct CatalogSession: Sendable, Equatable {
    /// The session's identifier, which the test extension uses as the download's identifier.
    var id: String
    /// The request path, such as `/sessions/wwdc23-10108.mp4`.
    var path: String
    /// The file's size in bytes.
    var size: Int
    /// The file's SHA-256 in lowercase hex.
    var sha256: String
    /// Whether the manifest marks it essential (a generated catalog marks the first two).
    var essential: Bool

    /// The path of a generated catalog's first session, which is essential; fault flags name it
    /// before the server has generated the catalog, which is the same on every machine.
    static let firstEssentialPath = "/sessions/wwdc23-10108.mp4"

    /// The sessions of a catalog folder's manifest.json, in order.
    /// - Parameter catalog: The folder the asset server serves.
    /// - Throws: `TestSupportError` when the manifest cannot be read.
    static func all(in catalog: URL) throws -> [CatalogSession] {
        let data = try Data(contentsOf: catalog.appendingPathComponent("manifest.json"))
        let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let sessions = manifest?["sessions"] as? [[String: Any]] ?? []
        return sessions.compactMap { session in
            guard let id = session["id"] as? String, let url = session["url"] as? String,
                  let size = session["fileSize"] as? Int, let sha = session["sha256"] as? String
            else { return nil }
            return CatalogSession(id: id, path: "/" + url, size: size, sha256: sha,
                                  essential: session["essential"] as? Bool ?? false)
        }
    }
}
