/*
Abstract:
Routing between the service and its notification host: the app's requests, and the answers of its delegate.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers the notification requests of an app or the debug tool.
    func handleNotificationRequest(_ request: ClientRequest, hello: Hello, connection: UInt64) async -> ServerResponse {
        failure(.downloadFailedToStart, "This service does not keep notifications yet.")
    }
}
