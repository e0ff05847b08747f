/*
Abstract:
Turns the manifest the system hands over into the downloads the test extension returns.
*/

import BackgroundAssets
import Foundation
import LifecycleTestKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// The downloads the test extension returns for one content request.
struct DownloadPlan {
    var behaviour: LifecycleBehaviour
    var appGroupIdentifier: String

    /// The downloads for a request, from the manifest's sessions and the behaviour.
    ///
    /// Like Apple's sample, essential sessions are returned as non-essential for a periodic
    /// request, unless the behaviour asks for them to stay essential (which the system refuses).
    /// - Parameters:
    ///   - manifest: The manifest, its session URLs already resolved.
    ///   - request: Why the system asks.
    /// - Returns: The downloads, in manifest order.
    func downloads(from manifest: Manifest, for request: BAContentRequest) -> [BADownload] {
        guard behaviour.returnsDownloads(for: request.rawValue) else { return [] }
        let essentialIDs = Set(behaviour.essential ?? manifest.sessions.filter(\.essential).map(\.id))
        let nonEssentialIDs = behaviour.nonEssential.map(Set.init)
            ?? Set(manifest.sessions.map(\.id)).subtracting(essentialIDs)
        let essentialAllowed = request != .periodic || behaviour.essentialForPeriodic
        return manifest.sessions.compactMap { session in
            if essentialIDs.contains(session.id) {
                return download(for: session, essential: essentialAllowed)
            }
            return nonEssentialIDs.contains(session.id) ? download(for: session, essential: false) : nil
        }
    }

    /// A download of one session, its host replaced when the behaviour says so.
    func download(for session: Session, essential: Bool, identifier: String? = nil) -> BAURLDownload {
        var url = session.url
        if let host = behaviour.hostOverrides[session.id],
           var components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            components.host = host
            url = components.url ?? url
        }
        return BAURLDownload(
            identifier: identifier ?? session.downloadIdentifier, request: URLRequest(url: url), essential: essential,
            fileSize: session.fileSize, applicationGroupIdentifier: appGroupIdentifier, priority: .default)
    }
}
