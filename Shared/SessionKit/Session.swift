/*
Abstract:
A WWDC session as the manifest describes it: where its video is, how big it is, and its checksum.
*/

import Foundation

/// A session video listed in the manifest.
public struct Session: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// A stable identifier such as `wwdc23-10108`; also names the session's file on disk.
    public var id: String
    /// The session's title, for display.
    public var title: String
    /// Where the video is downloaded from: absolute, or relative to the manifest's own URL.
    public var url: URL {
        get { address.url }
        set { address = Address(newValue) }
    }
    /// The video's exact size in bytes; essential downloads must declare it exactly.
    public var fileSize: Int
    /// The video's SHA-256, as 64 lowercase hexadecimal characters.
    public var sha256: String {
        get { digest.text }
        set { digest = Digest(newValue) }
    }
    /// Whether the video must be on the device before the app is first launched.
    public var essential: Bool
    /// An optional still image for the session.
    public var thumbnailURL: URL?

    /// Where ``url`` points, kept as its text.
    private(set) var address: Address
    /// ``sha256``, kept as the 32 bytes it spells.
    private(set) var digest: Digest

    /// Creates a session.
    public init(
        id: String, title: String, url: URL, fileSize: Int, sha256: String, essential: Bool,
        thumbnailURL: URL? = nil
    ) {
        self.id = id
        self.title = title
        self.address = Address(url)
        self.fileSize = fileSize
        self.digest = Digest(sha256)
        self.essential = essential
        self.thumbnailURL = thumbnailURL
    }

    /// Creates a session whose URL is kept as its text already.
    init(
        id: String, title: String, address: Address, fileSize: Int, sha256: String, essential: Bool, thumbnailURL: URL?
    ) {
        self.id = id
        self.title = title
        self.address = address
        self.fileSize = fileSize
        self.digest = Digest(sha256)
        self.essential = essential
        self.thumbnailURL = thumbnailURL
    }

    /// The identifier of the Background Assets download that fetches this session.
    ///
    /// The app and its extension both derive it from the session, so either can find the
    /// other's download in `fetchCurrentDownloads()`.
    public var downloadIdentifier: String { id }

    /// The file name the video is stored under: the identifier plus the URL's extension.
    public var fileName: String {
        let pathExtension = address.pathExtension
        return pathExtension.isEmpty ? id : "\(id).\(pathExtension)"
    }

    /// The manifest's field names for a session, written only here: encoding, decoding and the
    /// validator's messages all go through these keys.
    enum CodingKeys: String, CodingKey {
        case id, title, url, fileSize, sha256, essential, thumbnailURL
    }

    // URLs are written as the string they were given (relative stays relative), so a
    // generated manifest is the same bytes on every machine and behind every host.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(address.text, forKey: .url)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(essential, forKey: .essential)
        try container.encodeIfPresent(thumbnailURL?.absoluteString, forKey: .thumbnailURL)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        address = Address(try container.decode(URL.self, forKey: .url))
        fileSize = try container.decode(Int.self, forKey: .fileSize)
        digest = Digest(try container.decode(String.self, forKey: .sha256))
        essential = try container.decode(Bool.self, forKey: .essential)
        thumbnailURL = try container.decodeIfPresent(URL.self, forKey: .thumbnailURL)
    }
}
