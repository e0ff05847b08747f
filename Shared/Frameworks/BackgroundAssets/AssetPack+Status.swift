/*
Abstract:
The status of an asset pack: what is on the device, what is on the server, and what is happening.
*/

extension AssetPack {
    /// The status of an asset pack, a set of flags with Apple's raw values.
    public struct Status: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        /// Creates a status from its raw value.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// A status value that indicates that the asset pack is available to download.
        public static let downloadAvailable = Status(rawValue: 1 << 0)
        /// A status value that indicates that an update to the asset pack is available to download.
        public static let updateAvailable = Status(rawValue: 1 << 1)
        /// A status value that indicates that the downloaded asset pack is up to date.
        public static let upToDate = Status(rawValue: 1 << 2)
        /// A status value that indicates that the downloaded asset pack is out of date.
        public static let outOfDate = Status(rawValue: 1 << 3)
        /// A status value that indicates that the asset pack is no longer available to download.
        public static let obsolete = Status(rawValue: 1 << 4)
        /// A status value that indicates that the system is currently downloading the asset pack.
        public static let downloading = Status(rawValue: 1 << 5)
        /// A status value that indicates that the system finished downloading the asset pack.
        public static let downloaded = Status(rawValue: 1 << 6)

        /// The status of a pack from what the server offers and what the device has.
        /// - Parameters:
        ///   - latestVersion: The version the server's manifest lists, or `nil` when it lists none.
        ///   - installedVersion: The version on the device, or `nil`.
        ///   - isDownloading: Whether a download of the pack is under way.
        init(latestVersion: Int?, installedVersion: Int?, isDownloading: Bool) {
            var status: Status = isDownloading ? .downloading : []
            switch (latestVersion, installedVersion) {
            case (nil, nil):
                break
            case (_?, nil):
                status.insert(.downloadAvailable)
            case (nil, _?):
                status.formUnion([.downloaded, .obsolete])
            case let (latest?, installed?):
                status.insert(.downloaded)
                if installed == latest {
                    status.insert(.upToDate)
                } else {
                    // A lower version on the server (a rollback) still makes the local one out of date.
                    status.formUnion(latest > installed ? [.outOfDate, .updateAvailable] : .outOfDate)
                }
            }
            self = status
        }
    }
}
