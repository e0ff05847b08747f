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
        case .downloads, .willTerminate, .shouldDownload: nil
        }
    }

    /// A short detail for the trace.
    var traceDetail: String? {
        switch self {
        case let .downloads(request, _, _, _): "\(request)"
        case let .failed(_, failure): failure.message
        case let .shouldDownload(_, packIDs): packIDs.joined(separator: ", ")
        case .finished, .challenge, .willTerminate: nil
        }
    }
}

extension Double {
    /// A number of seconds in whole milliseconds, for the trace; 0 when out of range.
    var wholeMilliseconds: Int {
        Int(exactly: (self * 1000).rounded(.down)) ?? 0
    }
}
