/*
Abstract:
The manifest seen from this device: every session with its place on disk, and the ones still to download.
*/

import Foundation

extension Manifest {
    /// Every session of the manifest paired with its file in the app group container, in display order.
    /// - Parameter settings: The app group's locations.
    /// - Returns: One local session for each session of the manifest.
    public func localSessions(settings: SharedSettings) -> [LocalSession] {
        sessions.map { LocalSession(session: $0, settings: settings) }
    }

    /// The sessions whose videos are not on this device: the ones the app and its extension download.
    ///
    /// The disk is read on every call, so a video the system removed under storage pressure (or
    /// `backgroundassets-debug purge` removed) is listed again and fetched anew.
    /// - Parameter settings: The app group's locations.
    /// - Returns: The remote sessions, in display order.
    public func remoteSessions(settings: SharedSettings) -> [LocalSession] {
        // The positions first, then the list at its exact size: with 100,000 sessions, a list grown
        // as it is filled holds up to twice the room it needs, about 6 MiB more in the extension.
        let remote = sessions.indices.filter { LocalSession(session: sessions[$0], settings: settings).state == .remote }
        var localSessions: [LocalSession] = []
        localSessions.reserveCapacity(remote.count)
        for index in remote { localSessions.append(LocalSession(session: sessions[index], settings: settings)) }
        return localSessions
    }
}
