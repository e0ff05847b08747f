/*
Abstract:
The authentication challenges the service has handed to an app's delegates and waits on.
*/

import Foundation

/// Tracks every challenge sent to an app's delegates until one of them answers it.
///
/// Finished files are not here: their delivery has its own owner, ``DeliveryState``.
struct HandOverDesk {
    private var challenges: [UInt64: Int64] = [:]

    /// Records a challenge sent to an app's delegates.
    mutating func ask(_ id: UInt64, rowID: Int64) {
        challenges[id] = rowID
    }

    /// Takes the challenge's download once, for the first answer; `nil` for a later one.
    mutating func answer(_ id: UInt64) -> Int64? {
        challenges.removeValue(forKey: id)
    }
}
