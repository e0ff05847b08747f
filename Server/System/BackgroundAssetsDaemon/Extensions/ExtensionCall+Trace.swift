/*
Abstract:
How an extension call and its timing read in the trace.
*/

import BackgroundAssetsIPC

extension ExtensionCall {
    /// The download a call is about, for the trace.
    var downloadIdentifier: String? {
        switch self {
        case let .finished(download, _), let .failed(download, _), let .challenge(download, _): download.identifier
        case .downloads, .willTerminate: nil
        }
    }

    /// A short detail for the trace.
    var traceDetail: String? {
        switch self {
        case let .downloads(request, _, _, _): "\(request)"
        case let .failed(_, failure): failure.message
        case .finished, .challenge, .willTerminate: nil
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
