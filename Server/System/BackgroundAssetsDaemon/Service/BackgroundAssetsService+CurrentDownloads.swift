/*
Abstract:
What fetchCurrentDownloads lists to an app and to its extension, and whether a finished download's end is the extension's.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// The app's downloads that have not ended, then those that finished but whose file is still
    /// being handed over to whoever asks.
    ///
    /// Listing the second kind (in the finished state) closes a race: an app that lists its current
    /// downloads and the WWDC sessions missing from disk would otherwise see a download that just
    /// finished in neither list, and start it again. The app sees only the files on their way to
    /// its own delegate: a file the extension receives ends for the extension, and an app that saw
    /// its download could promote it, then wait for a callback that never comes (Apple's
    /// `fetchCurrentDownloads` lists scheduled and in-flight downloads only). The extension, which
    /// cannot promote, also sees the files on their way to itself.
    /// - Parameters:
    ///   - app: The app whose downloads to list.
    ///   - role: Who asks: the app, or its extension (or the debug tool, which sees what the extension sees).
    func currentDownloads(of app: String, for role: Hello.Role) async throws -> [DownloadRow] {
        var rows = try await storeReader.read { try $0.currentDownloads(bundleIdentifier: app) }
            .filter { $0.descriptor.kind != .backgroundSession }
        var handingOver = deliveries.rows(of: app)
        if role != .app { handingOver.formUnion(rowsGivenToExtension(of: app)) }
        let listed = handingOver.sorted()
        rows += try await storeReader.read { store in try listed.compactMap { try store.download(id: $0) } }
        return rows
    }

    /// The rows of an app whose finished files are held for its extension or on their way to it:
    /// the essential phase's, and the calls it has queued, running or waiting for its next launch.
    func rowsGivenToExtension(of app: String) -> Set<Int64> {
        var rows = installs.essentialFilesHeld(of: app)
        for record in extensionCalls.runs.callsOwed(to: app) {
            if case let .delivery(_, rowID) = record.purpose { rows.insert(rowID) }
        }
        return rows
    }
}
