/*
Abstract:
Parts of what an extension's entry point returned, sent before the call's return so no frame holds every download.
*/

import BackgroundAssetsIPC

extension BackgroundAssetsService {
    /// Keeps part of the downloads the running call of an extension returned; the call's
    /// `extensionCallReturned` brings the rest and acts on all of them together.
    func extensionCallReturnedPart(callID: UInt64, downloads: [DownloadDescriptor], connection: UInt64) -> ServerResponse {
        do {
            try extensionCalls.partReturned(downloads, callID: callID, connection: connection)
            return .done
        } catch {
            switch error {
            case .noSuchCall:
                return failure(.callerConnectionInvalid, "No extension call \(callID) is running on this connection; it may have timed out.")
            case let .tooMany(count):
                return failure(.downloadInvalid, "Extension call \(callID) returned \(count) downloads in its parts, more than the \(ExtensionCallLifecycle.maximumReturnedDownloads) the service keeps for one call (ExtensionCallLifecycle.maximumReturnedDownloads); the parts are dropped.")
            }
        }
    }
}
