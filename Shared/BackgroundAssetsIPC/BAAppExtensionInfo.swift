/*
Abstract:
What the extension learns about its app's download allowance when it is asked for downloads.
*/

/// Information about the app the extension belongs to, passed to `downloads(for:manifestURL:extensionInfo:)`.
public final class BAAppExtensionInfo: Sendable, Hashable, CustomStringConvertible {
    /// The bytes of non-essential downloads that can still be scheduled before the app first launches,
    /// or `nil` once the app has launched and the restriction is lifted.
    public let restrictedDownloadSizeRemaining: Int?

    /// The bytes of essential downloads that can still be scheduled before the app first launches,
    /// or `nil` once the app has launched and the restriction is lifted.
    public let restrictedEssentialDownloadSizeRemaining: Int?

    /// Creates the information the system passes to the extension.
    /// - Parameters:
    ///   - restrictedDownloadSizeRemaining: The remaining non-essential allowance, or `nil`.
    ///   - restrictedEssentialDownloadSizeRemaining: The remaining essential allowance, or `nil`.
    package init(restrictedDownloadSizeRemaining: Int?, restrictedEssentialDownloadSizeRemaining: Int?) {
        self.restrictedDownloadSizeRemaining = restrictedDownloadSizeRemaining
        self.restrictedEssentialDownloadSizeRemaining = restrictedEssentialDownloadSizeRemaining
    }

    /// Whether two values report the same remaining allowances.
    public static func == (lhs: BAAppExtensionInfo, rhs: BAAppExtensionInfo) -> Bool {
        lhs.restrictedDownloadSizeRemaining == rhs.restrictedDownloadSizeRemaining
            && lhs.restrictedEssentialDownloadSizeRemaining == rhs.restrictedEssentialDownloadSizeRemaining
    }

    /// Hashes the remaining allowances.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(restrictedDownloadSizeRemaining)
        hasher.combine(restrictedEssentialDownloadSizeRemaining)
    }

    /// The remaining allowances, or "unrestricted" for each one that is lifted.
    public var description: String {
        func bytes(_ value: Int?) -> String { value.map(String.init) ?? "unrestricted" }
        return "<BAAppExtensionInfo restrictedDownloadSizeRemaining=\(bytes(restrictedDownloadSizeRemaining)) "
            + "restrictedEssentialDownloadSizeRemaining=\(bytes(restrictedEssentialDownloadSizeRemaining))>"
    }
}
