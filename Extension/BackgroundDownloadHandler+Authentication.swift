/*
Abstract:
How the extension answers the asset server's authentication challenge for protected sessions.
*/

import BackgroundAssets
import Foundation
import OSLog
import SessionKit

extension BackgroundDownloadHandler {
    func backgroundDownload(
        _ download: BADownload, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        // The asset server protects the sessions under /protected/ with Basic authentication when it
        // runs with --auth. Whoever sets up the device stores the credentials in the app group; see
        // `ServerCredentials`. Everything else gets the default handling, which fails the download.
        let settings = SharedSettings.shared
        guard challenge.previousFailureCount == 0 else {
            // The stored credentials were already refused once; offering them again would loop.
            Logger.ext.error("The server refused the stored credentials for download \(download.identifier).")
            return (.performDefaultHandling, nil)
        }
        do {
            guard let manifest = try settings.loadLocalManifest(),
                  let session = manifest.session(forDownloadIdentifier: download.identifier),
                  let credentials = try settings.loadCredentials(),
                  credentials.answer(challengeFrom: challenge.protectionSpace.host, downloading: session.url)
            else { return (.performDefaultHandling, nil) }
            Logger.ext.info("Answering the server's challenge for download \(download.identifier).")
            let credential = URLCredential(
                user: credentials.user, password: credentials.password, persistence: .forSession)
            return (.useCredential, credential)
        } catch {
            Logger.ext.error("""
                Failed to load what answers the challenge for download \(download.identifier). \
                \(error.localizedDescription)
                """)
            return (.performDefaultHandling, nil)
        }
    }
}
