/*
Abstract:
Apple's OSSignpostID: the number that pairs the beginning of a signposted interval with its end.
*/

import Synchronization

/// An identifier that pairs the beginning of a signposted interval with its end, and tells apart
/// intervals of the same name that overlap, as Apple's `OSSignpostID`.
public struct OSSignpostID: Sendable, Hashable, Comparable {
    /// The identifier's value.
    public let rawValue: UInt64

    /// Creates an identifier with a value.
    /// - Parameter value: The value; avoid ``null``'s and ``invalid``'s.
    public init(_ value: UInt64) {
        rawValue = value
    }

    /// Creates an identifier unique within this process, for signposts of a log.
    /// - Parameter log: The log the signposts go to.
    public init(log: OSLog) {
        self = Self.next()
    }

    /// Creates an identifier derived from an object, so calls that have the object make the same one.
    /// - Parameters:
    ///   - log: The log the signposts go to.
    ///   - object: The object; its identity, not its value, gives the identifier.
    public init(log: OSLog, object: AnyObject) {
        self.init(UInt64(UInt(bitPattern: ObjectIdentifier(object).hashValue)))
    }

    /// The identifier of intervals that never overlap one another: one at a time per name.
    public static let exclusive = OSSignpostID(0xEEEE_B0B5_B2B2_EEEE)
    /// An identifier that marks no signpost.
    public static let null = OSSignpostID(0)
    /// An identifier that marks an error.
    public static let invalid = OSSignpostID(~0)

    public static func < (lhs: OSSignpostID, rhs: OSSignpostID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The last identifier this process made; each new one is the next number.
    private static let counter = Atomic<UInt64>(0)

    static func next() -> OSSignpostID {
        OSSignpostID(counter.add(1, ordering: .relaxed).newValue)
    }
}
