/*
Abstract:
Where each session of a manifest is, by identifier, worked out on the first lookup.
*/

import Foundation

/// Finds a session's position in a manifest's list by identifier, with an index built the first time
/// a session is looked up.
///
/// The app and the extension look sessions up in every download callback, so a manifest keeps an
/// index rather than searching thousands of sessions each time. The index is the list's positions
/// sorted by identifier, searched by halves: with 100,000 sessions that is 0.8 MB, where a dictionary
/// by identifier was 6 MiB, which took the extension over its memory limit at its first finished
/// download. And it is built on the first lookup, because answering
/// `downloads(for:manifestURL:extensionInfo:)` looks nothing up.
final class SessionPositions: @unchecked Sendable {
    // Foundation's lock, as in `LocalManifestCache`: SessionKit imports Foundation only. It guards
    // `order`, hence the unchecked Sendable.
    private let lock = NSLock()
    /// Positions in the list, ordered by their sessions' identifiers, and by position among equal ones.
    private var order: [Int]?

    /// The first position of an identifier in `sessions`, as a search from the start would find it.
    /// - Parameters:
    ///   - id: The identifier.
    ///   - sessions: The manifest's sessions; always the same list for one index, which the manifest
    ///     replaces whenever its sessions change.
    func position(of id: Session.ID, in sessions: [Session]) -> Int? {
        lock.withLock {
            let order = self.order ?? sessions.indices.sorted { first, second in
                sessions[first].id == sessions[second].id ? first < second : sessions[first].id < sessions[second].id
            }
            self.order = order
            // The first place whose identifier is not below `id`.
            var low = 0
            var high = order.count
            while low < high {
                let middle = low + (high - low) / 2
                if sessions[order[middle]].id < id { low = middle + 1 } else { high = middle }
            }
            guard low < order.count, sessions[order[low]].id == id else { return nil }
            return order[low]
        }
    }
}
