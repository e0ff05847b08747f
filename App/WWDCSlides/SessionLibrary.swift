/*
Abstract:
The sessions WWDC Slides knows, read from its essential asset pack, and the pack that holds each session's slides.
*/

import BackgroundAssets
import Foundation

/// A session as the essential pack's session list describes it.
struct SessionSummary: Decodable, Sendable {
    /// A stable identifier such as `wwdc23-10108`, whose prefix names the year.
    let id: String
    let title: String

    /// The on-demand pack that holds the slides of the session's year, such as `Slides-WWDC23`.
    var slidesPackID: String {
        let year = id.prefix { $0 != "-" }.uppercased()
        return "Slides-\(year)"
    }

    /// The slides' path in the asset packs' shared namespace.
    var slidesPath: FilePath { FilePath("Slides/\(id).pdf") }

    /// The transcript's path in the asset packs' shared namespace.
    var transcriptPath: FilePath { FilePath("Transcripts/\(id).txt") }
}

/// Reads what the essential and prefetch packs put on the device.
struct SessionLibrary {
    /// The session list, in the essential pack `SessionResources`.
    static let sessionListPath: FilePath = "Resources/sessions.json"

    let manager = AssetPackManager.shared

    /// The sessions of the session list.
    ///
    /// The session list is in an essential pack, which the system installs before the app can
    /// launch, so reading it never waits for the network.
    func sessions() throws -> [SessionSummary] {
        let data = try manager.contents(at: Self.sessionListPath, searchingInAssetPackWithID: "SessionResources")
        return try JSONDecoder().decode([SessionSummary].self, from: data)
    }

    /// The session with an identifier.
    func session(withID id: String) throws -> SessionSummary {
        guard let session = try sessions().first(where: { $0.id == id }) else {
            throw SlidesError.unknownSession(id)
        }
        return session
    }

    /// The first line of a session's transcript, when the prefetch pack is on the device.
    func transcriptTitle(of session: SessionSummary) -> String? {
        // The transcripts are a prefetch pack: usually there, but the system may not have finished
        // it yet, or may have removed it under storage pressure. The app works without it.
        guard let data = try? manager.contents(at: session.transcriptPath, searchingInAssetPackWithID: "Transcripts") else {
            return nil
        }
        return String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}
