/*
Abstract:
The identifier of the download that fetches one version of an asset pack, which the service recognises.
*/

/// Names the `BADownload` of a pack's archive, `asset-pack.ID.vVERSION`, so the system can tell an
/// asset pack's download from any other and route its file to the pack installer instead of the
/// extension.
public struct AssetPackDownloadIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The pack's identifier.
    public var packID: String
    /// The version the download fetches.
    public var version: Int

    private static let prefix = "asset-pack."

    /// Creates the identifier of a pack version's download.
    public init(packID: String, version: Int) {
        self.packID = packID
        self.version = version
    }

    /// Reads a download identifier, or returns `nil` when it is not a pack's.
    public init?(parsing identifier: String) {
        guard identifier.hasPrefix(Self.prefix), let marker = identifier.range(of: ".v", options: .backwards),
              let version = Int(identifier[marker.upperBound...]), version >= 0 else { return nil }
        let packID = String(identifier[identifier.index(identifier.startIndex, offsetBy: Self.prefix.count)..<marker.lowerBound])
        guard AssetPackIdentifier.problem(with: packID) == nil else { return nil }
        self.init(packID: packID, version: version)
    }

    /// The download identifier, `asset-pack.ID.vVERSION`.
    public var description: String { "\(Self.prefix)\(packID).v\(version)" }
}
