/*
Abstract:
The version file the game checks at launch: which game data is newest, where its archive is, its size and SHA-256.
*/

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `version.json`: `{"version":2,"archive":"GameData-v2.aar","size":25167004,"sha256":"…"}`.
struct GameVersion: Codable, Sendable, Equatable {
    var version: Int
    /// The archive, relative to the version file.
    var archive: String
    var size: Int64
    var sha256: String
    /// Where the version file was read from, which the archive's path is relative to.
    var versionFileURL: URL?

    /// The archive's URL.
    var archiveURL: URL {
        URL(string: archive, relativeTo: versionFileURL)?.absoluteURL ?? URL(fileURLWithPath: "/")
    }

    /// The version file's URL: `GameVersionURL` in the installed Info.plist.
    static var infoPlistURL: URL? {
        (Bundle.main.object(forInfoDictionaryKey: "GameVersionURL") as? String).flatMap(URL.init(string:))
    }

    /// Fetches the version file. It is small: an ordinary (not background) request while the game runs.
    static func fetch(from url: URL) async throws -> GameVersion {
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(from: url)
        } catch {
            throw GameError.versionFile(url, error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw GameError.versionFile(url, "the server answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        do {
            var version = try JSONDecoder().decode(GameVersion.self, from: data)
            version.versionFileURL = url
            return version
        } catch {
            throw GameError.versionFile(url, "it is not a version file (\(error.localizedDescription))")
        }
    }
}

/// What keeps the game from getting its data, with what to do about it.
enum GameError: Error, CustomStringConvertible {
    case notInstalled
    case versionFile(URL, String)
    case container(String)

    var description: String {
        switch self {
        case .notInstalled:
            "The game is not installed on this device. Install it first: "
                + "swift run backgroundassets-debug install --app-plist App/BackgroundGame/Info.plist"
        case let .versionFile(url, reason):
            "The version file \(url.absoluteString) could not be read: \(reason). Start the asset server "
                + "(swift run asset-server) or check GameVersionURL in App/BackgroundGame/Info.plist."
        case let .container(reason):
            "The game's container is not usable: \(reason)."
        }
    }
}
