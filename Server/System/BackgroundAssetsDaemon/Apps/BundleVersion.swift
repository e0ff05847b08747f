/*
Abstract:
A CFBundleVersion as numbers, so an install can tell an update (1.10 after 1.9) from a reinstall or a downgrade.
*/

/// A bundle version: one to three non-negative integers separated by dots, compared numerically.
///
/// Missing components count as zero, so `1`, `1.0` and `1.0.0` are the same version, and
/// `1.10` is newer than `1.9`, as App Store Connect orders builds.
public struct BundleVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The components, always three, missing ones as zero.
    public let components: [Int]
    /// The version as written.
    public let text: String

    /// Parses a version, or returns `nil` for anything but one to three dot-separated integers of at most nine digits.
    /// - Parameter text: A version such as `1`, `1.2` or `2.3.1`.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            // Nine digits always fit an Int, and plain digits only: no sign, no spaces, no other numerals.
            guard (1...9).contains(part.utf8.count), part.utf8.allSatisfy({ (48...57).contains($0) }),
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        components = numbers + Array(repeating: 0, count: 3 - numbers.count)
        self.text = text
    }

    /// Whether two versions are the same, ignoring trailing zero components.
    public static func == (lhs: BundleVersion, rhs: BundleVersion) -> Bool { lhs.components == rhs.components }

    /// Hashes the numeric components, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    /// Whether `lhs` is older than `rhs`, component by component.
    public static func < (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components)
    }

    /// The version as written.
    public var description: String { text }
}
