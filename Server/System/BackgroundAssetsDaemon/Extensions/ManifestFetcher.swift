/*
Abstract:
Fetches an app's BAManifestURL for a content request, into a read-only file the extension is handed.
*/

import BackgroundAssetsIPC
import Foundation

/// Downloads the file at an app's `BAManifestURL` before the extension is asked for downloads.
///
/// The service fetches the manifest itself, as Apple's does, so the extension starts with the file
/// already on disk. The copy is made read-only (0444) and deleted once the call returns.
struct ManifestFetcher: Sendable {
    /// A manifest larger than this is refused: it lists assets, it is not one. A manifest of 100,000
    /// sessions is about 26 MB.
    static let maximumSize: Int64 = 64 << 20

    /// Where manifests wait for the extension: `staging/manifests/`.
    let folder: URL
    /// Give up on a server that sends nothing for this long.
    let stallTimeout: Double
    /// The CAs an https manifest server may chain to: the system's and the device's.
    var trust: TrustedCertificates?

    /// Fetches a manifest into a new read-only file.
    /// - Parameters:
    ///   - url: The app's `BAManifestURL`.
    ///   - name: A file name unique to this request (no client string: the caller builds it).
    /// - Returns: The file, or the failure to deliver to the extension.
    func fetch(_ url: URL, name: String) async -> Result<URL, WireFailure> {
        let file = folder.appending(path: name, directoryHint: .notDirectory)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return .failure(WireFailure(domain: "NSCocoaErrorDomain", code: 513, message: "The service could not create \(folder.path): \(error.localizedDescription)."))
        }
        unlink(file.path)
        let control = TransferControl()
        var request = TransferRequest(
            url: url, partFile: file, checkpointBytes: Self.maximumSize,
            stallTimeout: .seconds(fractional: stallTimeout), trust: trust)
        // Read at once and deleted after the call; a service that stops before then fetches it again.
        request.syncsFinishedFile = false
        let transfer = HTTPTransfer(request: request, control: control) { event in
            // A server that sends more than a manifest could be is cut off rather than filling the disk.
            if case let .progress(written, expected) = event, max(written, expected ?? 0) > Self.maximumSize {
                control.cancel()
            }
        }
        let result: Result<TransferResult, TransferError> = await withCheckedContinuation { continuation in
            Thread.start(named: "manifest-fetch") {
                continuation.resume(returning: Result { () throws(TransferError) in try transfer.run() })
            }
        }
        switch result {
        case .success:
            LinkRefusingFile.restrictMode(file, to: 0o444)
            return .success(file)
        case let .failure(error):
            unlink(file.path)
            var failure = error.wireFailure
            failure.message = control.isCancelled
                ? "The manifest at \(url.absoluteString) is larger than \(Self.maximumSize >> 20) MiB; a manifest lists assets and should be small."
                : "The manifest at \(url.absoluteString) could not be fetched: \(error). Check BAManifestURL in the app's Info.plist and that the server is running."
            return .failure(failure)
        }
    }
}
