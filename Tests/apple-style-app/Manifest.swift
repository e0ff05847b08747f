/*
Abstract:
The manifest of sessions the app and its extension download: Apple-style code, as the WWDC Sessions sample writes it.
*/

// Written from Apple's documentation of Background Assets and the WWDC23 session; compiled unchanged
// in Swift 6 and Swift 5 language modes. Edits from Apple's platforms: none.
import Foundation

/// A WWDC session video the app can play once it's on the device.
struct Session: Codable, Identifiable, Hashable {
    let id: String
    let title: String
    let url: URL
    let fileSize: Int
    let essential: Bool

    enum CodingKeys: String, CodingKey {
        case id, title, url, fileSize, essential
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        url = try container.decode(URL.self, forKey: .url)
        fileSize = try container.decode(Int.self, forKey: .fileSize)
        essential = try container.decodeIfPresent(Bool.self, forKey: .essential) ?? false
    }
}

/// The list of sessions the server publishes at the app's `BAManifestURL`.
struct Manifest: Codable {
    let version: Int
    let sessions: [Session]

    /// Parses a manifest file, such as the copy the system hands the extension.
    static func load(from fileURL: URL) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: fileURL))
    }
}
