/*
Abstract:
The private class of the manifest download the service makes for a content request.
*/

import BackgroundAssetsIPC

/// The download of an app's `BAManifestURL`, delivered to the extension when it fails.
///
/// It is a subclass rather than a plain ``BAURLDownload`` so that extension code can tell it apart
/// the way Apple's sample does: `type(of: download) == BAURLDownload.self` is `false` for it.
final class BAManifestDownload: BAURLDownload, @unchecked Sendable {
    override class var kind: DownloadDescriptor.Kind { .manifest }
}
