/*
Abstract:
Apple's OSSignpostIntervalState: what a begun signposted interval hands to its end.
*/

import Foundation
import Synchronization

/// The state of a signposted interval that has begun, returned by ``OSSignposter/beginInterval(_:id:)``
/// and given back to ``OSSignposter/endInterval(_:_:)``, as Apple's `OSSignpostIntervalState`.
///
/// The end uses it to check that the interval is ended once, under the name it began with, and
/// to say how long the interval took.
public final class OSSignpostIntervalState: Sendable, Codable {
    /// The identifier the interval began with.
    let signpostID: OSSignpostID
    /// The name it began with, when this process began it.
    let name: String?
    /// When it began, when this process began it.
    let start: ContinuousClock.Instant?
    /// Whether an end has used this state.
    private let hasEnded = Atomic(false)

    init(id: OSSignpostID, name: String?, start: ContinuousClock.Instant?) {
        signpostID = id
        self.name = name
        self.start = start
    }

    /// Recreates interval state from the signpost ID an interval began with, such as one received
    /// from another process.
    /// - Parameter id: The signpost ID the interval began with.
    /// - Returns: The state, without the checks that need its begin.
    public static func beginState(id: OSSignpostID) -> OSSignpostIntervalState {
        OSSignpostIntervalState(id: id, name: nil, start: nil)
    }

    /// Marks the state as used by an end.
    /// - Returns: Whether an end had used it already.
    func markEnded() -> Bool {
        hasEnded.exchange(true, ordering: .relaxed)
    }

    private enum CodingKeys: String, CodingKey {
        case signpostID
    }

    /// Reads the state another process wrote: its signpost ID alone.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: OSSignpostID(try container.decode(UInt64.self, forKey: .signpostID)), name: nil, start: nil)
    }

    /// Writes the state for another process to end the interval: its signpost ID.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(signpostID.rawValue, forKey: .signpostID)
    }
}
