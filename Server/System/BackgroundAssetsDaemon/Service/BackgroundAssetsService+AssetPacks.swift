/*
Abstract:
Routing between the service and its asset-pack subsystem: the app's requests, the queue's pack events, and installs.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers a request of the asset-pack manager or of the debug tool about asset packs.
    func handleAssetPackRequest(_ request: ClientRequest, hello: Hello, connection: UInt64) async -> ServerResponse {
        failure(.callerConnectionNotAccepted, "This service does not serve asset-pack requests yet.")
    }
}
