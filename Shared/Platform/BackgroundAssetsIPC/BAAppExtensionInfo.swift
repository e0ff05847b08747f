/*
Abstract:
What the extension learns about its app's download allowance when it is asked for downloads.
*/

import Foundation

/// Information about the app the extension belongs to, passed to `downloads(for:manifestURL:extensionInfo:)`.
///
/// - Note: As in Apple's framework it is an immutable `NSObject` that adopts `NSSecureCoding`. Two
///   values are equal when they report the same allowances.
public final class BAAppExtensionInfo: NSObject, NSSecureCoding, Sendable {
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
        super.init()
    }

    private static let downloadKey = "restrictedDownloadSizeRemaining"
    private static let essentialKey = "restrictedEssentialDownloadSizeRemaining"

    /// Whether the class supports secure coding; it does.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the allowances; a lifted restriction is archived as an absent key.
    /// - Parameter coder: A keyed coder, such as `NSKeyedArchiver`.
    public func encode(with coder: NSCoder) {
        if let restrictedDownloadSizeRemaining {
            coder.encode(NSNumber(value: restrictedDownloadSizeRemaining), forKey: Self.downloadKey)
        }
        if let restrictedEssentialDownloadSizeRemaining {
            coder.encode(NSNumber(value: restrictedEssentialDownloadSizeRemaining), forKey: Self.essentialKey)
        }
    }

    /// Creates the information an archive describes.
    /// - Parameter coder: A keyed coder, such as `NSKeyedUnarchiver`.
    public init?(coder: NSCoder) {
        restrictedDownloadSizeRemaining = Self.decodeSize(from: coder, forKey: Self.downloadKey)
        restrictedEssentialDownloadSizeRemaining = Self.decodeSize(from: coder, forKey: Self.essentialKey)
        super.init()
    }

    /// Reads one allowance; an absent key is a lifted restriction, not an error.
    private static func decodeSize(from coder: NSCoder, forKey key: String) -> Int? {
        // Asking a secure unarchiver for a missing key is a decoding failure on Linux, so check first.
        guard coder.containsValue(forKey: key) else { return nil }
        return coder.decodeObject(of: NSNumber.self, forKey: key)?.intValue
    }

    /// Whether an object is a `BAAppExtensionInfo` that reports the same remaining allowances.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? BAAppExtensionInfo else { return false }
        return restrictedDownloadSizeRemaining == other.restrictedDownloadSizeRemaining
            && restrictedEssentialDownloadSizeRemaining == other.restrictedEssentialDownloadSizeRemaining
    }

    /// A hash of the remaining allowances, consistent with `isEqual(_:)`.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(restrictedDownloadSizeRemaining)
        hasher.combine(restrictedEssentialDownloadSizeRemaining)
        return hasher.finalize()
    }

    /// The remaining allowances, or "unrestricted" for each one that is lifted.
    public override var description: String {
        func bytes(_ value: Int?) -> String { value.map(String.init) ?? "unrestricted" }
        return "<BAAppExtensionInfo restrictedDownloadSizeRemaining=\(bytes(restrictedDownloadSizeRemaining)) "
            + "restrictedEssentialDownloadSizeRemaining=\(bytes(restrictedEssentialDownloadSizeRemaining))>"
    }
}
