/*
Abstract:
The facts about one download that the allowance accounting needs.
*/

import Foundation

extension DownloadAllowance {
    /// One download as the allowance sees it.
    public struct Request: Sendable, Equatable {
        /// The download's identifier, for messages.
        public var identifier: String
        /// The download's URL; its host is checked against the allow list.
        public var url: URL
        /// The declared size in bytes; 0 or less when the download declared none.
        public var fileSize: Int
        /// Whether the download is essential (counted against `BAEssentialDownloadAllowance`).
        public var isEssential: Bool
        /// Whether the device's in-app content setting lets downloads run before the first launch.
        public var inAppContentEnabled: Bool

        /// Describes a download.
        /// - Parameters:
        ///   - identifier: The download's identifier.
        ///   - url: The download's URL.
        ///   - fileSize: The declared size in bytes, 0 when none was declared.
        ///   - isEssential: Whether the download is essential.
        ///   - inAppContentEnabled: The device's in-app content setting; on by default.
        public init(identifier: String, url: URL, fileSize: Int, isEssential: Bool, inAppContentEnabled: Bool = true) {
            self.identifier = identifier
            self.url = url
            self.fileSize = fileSize
            self.isEssential = isEssential
            self.inAppContentEnabled = inAppContentEnabled
        }
    }
}
