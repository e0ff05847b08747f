/*
Abstract:
The service's answers to the core family: its status, an app's launch, the extension's check-in and returns.
*/

import BackgroundAssetsIPC

extension BackgroundAssetsService {
    /// Answers a request of the core family, or returns `nil` when the answer comes later (an install ends).
    func handleCoreRequest(_ request: ClientRequest.Core, id: UInt64, hello: Hello, client: Client) async throws -> ServerResponse? {
        let connection = client.connection.id
        switch request {
        case .fetchStatus:
            return .status(try await status())
        case let .fetchDownloadStatuses(after):
            return .downloadStatuses(try await downloadStatuses(after: after))
        case let .awaitLaunchable(bundleIdentifier, recordLaunch):
            return await awaitLaunchable(bundleIdentifier, recordLaunch: recordLaunch && hello.role == .app, requestID: id, connection: connection)
        case .extensionCheckIn:
            return extensionCheckIn(client: client)
        case let .extensionCallReturned(callID, result):
            return await extensionCallReturned(callID: callID, result: result, connection: connection)
        case let .extensionCallReturnedPart(callID, downloads):
            return await extensionCallReturnedPart(callID: callID, downloads: downloads, connection: connection)
        }
    }
}
