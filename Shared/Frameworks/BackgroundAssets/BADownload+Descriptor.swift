/*
Abstract:
Conversions between downloads and their wire form, and the validity check the manager applies.
*/

import BackgroundAssetsIPC

extension BADownload {
    /// Creates the download object of the right class for a descriptor the service sent.
    /// - Parameter descriptor: A download as the service holds it.
    /// - Returns: A ``BAURLDownload``, or the private manifest class for the manifest download.
    package static func make(from descriptor: DownloadDescriptor) -> BADownload {
        switch descriptor.kind {
        // The service never sends a background session's transfer to Background Assets.
        case .url, .backgroundSession, .assetPack: BAURLDownload(descriptor: descriptor)
        case .manifest: BAManifestDownload(descriptor: descriptor)
        }
    }

    /// The download's wire form, as sent to the service.
    package var wireDescriptor: DownloadDescriptor { descriptor }

    /// Checks the download against the rules the service enforces, before it is sent.
    ///
    /// An https URL (or http on a loopback host), a non-empty identifier, a positive file size for
    /// an essential download, a valid app group identifier, and a priority from min to max.
    /// - Note: Apple checks these in the initialisers and traps. Here `scheduleDownload(_:)` and
    ///   `startForegroundDownload(_:)` call this method and throw its error, and the service checks
    ///   again because it trusts no client.
    /// - Throws: ``BAError`` with code ``BAError/Code/downloadInvalid`` and a message naming the problem.
    package func validate() throws {
        if let problem = descriptor.validationProblem() {
            throw BAError(.downloadInvalid, message: problem)
        }
    }
}
