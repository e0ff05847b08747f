/*
Abstract:
Where each session of a manifest is, by identifier, worked out on the first lookup.
*/

import Foundation

/// The position of each session in a manifest's list, by identifier, built the first time a session
/// is looked up.
///
/// The app and the extension look sessions up in every download callback, so a manifest keeps this
/// index rather than searching thousands of sessions each time. But the extension's busiest moment,
/// answering `downloads(for:manifestURL:extensionInfo:)`, looks nothing up: with 100,000 sessions,
/// an index built up front was 6 MiB it held for nothing.
final class SessionPositions: @unchecked Sendable {
    // Foundation's lock, as in `LocalManifestCache`: SessionKit imports Foundation only. It guards
    // `positions`, hence the unchecked Sendable.
    private let lock = NSLock()
    private var positions: [Session.ID: Int]?

    /// The first position of an identifier in `sessions`, as a search from the start would find it.
    /// - Parameters:
    ///   - id: The identifier.
    ///   - sessions: The manifest's sessions; always the same list for one index, which the manifest
    ///     replaces whenever its sessions change.
    func position(of id: Session.ID, in sessions: [Session]) -> Int? {
        lock.withLock {
            if let positions { return positions[id] }
            var built: [Session.ID: Int] = [:]
            built.reserveCapacity(sessions.count)
            for (position, session) in sessions.enumerated() where built[session.id] == nil {
                built[session.id] = position
            }
            positions = built
            return built[id]
        }
    }
}
