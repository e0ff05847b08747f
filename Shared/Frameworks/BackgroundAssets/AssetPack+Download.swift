/*
Abstract:
The download of an asset pack's archive, for apps and extensions that schedule packs themselves.
*/

import AssetPackFormat
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AssetPack {
    /// Creates a download object for the asset pack that you schedule using a download manager.
    ///
    /// The download is essential when the pack's policy is essential and applies to the content
    /// request (an install or an update); otherwise it is an ordinary background download.
    /// - Parameter contentRequest: The content request the extension is answering, or `nil` in the app.
    /// - Returns: A download of the pack's archive, identified as `asset-pack.ID.vVERSION`.
    public func download(for contentRequest: BAContentRequest?) -> BADownload {
        let url = archiveURL ?? URL(string: entry.url) ?? URL(fileURLWithPath: "/")
        return BAURLDownload(
            identifier: AssetPackDownloadIdentifier(packID: id, version: version).description,
            request: URLRequest(url: url), essential: isEssential(for: contentRequest),
            fileSize: downloadSize, applicationGroupIdentifier: appGroupID, priority: .default)
    }

    /// Whether the system would download this pack by itself for a content request.
    func applies(to contentRequest: BAContentRequest?) -> Bool {
        switch contentRequest {
        case nil: true
        case .install?: downloadPolicy.applies(to: .firstInstallation)
        case .update?: downloadPolicy.applies(to: .subsequentUpdate)
        case .periodic?: downloadPolicy != .onDemand
        }
    }

    /// Whether the pack's download is essential for a content request.
    func isEssential(for contentRequest: BAContentRequest?) -> Bool {
        guard downloadPolicy.isEssential else { return false }
        return contentRequest == .install || contentRequest == .update ? applies(to: contentRequest) : false
    }
}
