/*
Abstract:
A finished download's file on its way to its owner: the download's row and where its file is.
*/

import Foundation

/// A finished download and its file in the app group's hand-over folder.
struct FinishedFile: Sendable, Equatable {
    /// The download as stored when it finished: its descriptor goes out in the callback.
    var row: DownloadRow
    /// The file's name in the hand-over folder; a second name is kept beside it (``StagingArea/keptName(of:)``).
    var file: URL

    /// The download's row id.
    var rowID: Int64 { row.id }

    /// The app the download belongs to.
    var app: String { row.bundleIdentifier }
}
