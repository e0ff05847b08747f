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
        // Lazily, so a manifest of 100,000 sessions is not paired with its files twice over.
        Array(sessions.lazy.map { LocalSession(session: $0, settings: settings) }.filter { $0.state == .remote })
    }
}
