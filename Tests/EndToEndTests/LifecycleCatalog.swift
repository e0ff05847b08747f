/*
Abstract:
The generated catalog's sessions as the lifecycle tests see them: identifier, path, size, and whether essential.
*/

import Foundation
import SessionKit

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

    /// The sessions of a catalog folder's manifest.json, in order, read with SessionKit's `Manifest`.
    /// - Parameter catalog: The folder the asset server serves.
    /// - Throws: `SessionKitError` naming the file, and the field at fault, when the manifest cannot be read.
    static func all(in catalog: URL) throws -> [CatalogSession] {
        try Manifest.load(from: catalog.appendingPathComponent("manifest.json")).sessions.map { session in
            // Without a base URL a relative session URL stays relative: the path inside the catalog.
            CatalogSession(id: session.id, path: "/" + session.url.relativeString, size: session.fileSize,
                           sha256: session.sha256, essential: session.essential)
        }
    }
}
