/*
Abstract:
Routing between the service and its background-session host: the app's requests, and the queue's events for their transfers.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers the background-session requests of an app, its extension or the debug tool.
    func handleURLSessionRequest(_ request: ClientRequest, hello: Hello, connection: UInt64) async -> ServerResponse {
        failure(.downloadFailedToStart, "This service does not run background URL sessions yet; download with BADownloadManager instead.")
    }
}
