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
        let rows = try await storeReader.read { try $0.currentDownloads(bundleIdentifier: app) }
            .filter { $0.descriptor.kind != .backgroundSession }
        return try await rows + filesHandedOver(of: app, for: role)
    }

    /// A page of what ``currentDownloads(of:for:)`` lists, in row order, read and converted on the
    /// store reader's thread; the files being handed over come on the last page.
    ///
    /// A download listed on an earlier page may finish before the last one and be listed again
    /// there, finished: the client keeps the later of the two.
    /// - Parameters:
    ///   - app: The app whose downloads to list.
    ///   - role: Who asks, as for ``currentDownloads(of:for:)``.
    ///   - after: Where the page starts: 0 for the first, then the previous page's `moreAfter`.
    func currentDownloadsPage(of app: String, for role: Hello.Role, after: Int64) async throws -> CurrentDownloadsPage {
        var page = try await storeReader.read { store in
            let (rows, moreAfter) = try store.currentDownloadsPage(bundleIdentifier: app, after: after)
            return CurrentDownloadsPage(downloads: rows.map(\.descriptor), moreAfter: moreAfter)
        }
        if page.moreAfter == nil { page.downloads += try await filesHandedOver(of: app, for: role).map(\.descriptor) }
        return page
    }

    /// The app's finished downloads whose file is on its way to whoever asks (see ``currentDownloads(of:for:)``),
    /// and those whose finish the service has not routed yet (``FinishesOnTheirWay``): they are
    /// finished in the store, no longer among the downloads that have not ended, and their file's
    /// receiver is not known yet.
    private func filesHandedOver(of app: String, for role: Hello.Role) async throws -> [DownloadRow] {
        var handingOver = deliveries.rows(of: app)
        if role != .app { handingOver.formUnion(rowsGivenToExtension(of: app)) }
        let onTheirWay = queue.finishesOnTheirWay.all.subtracting(handingOver)
        let listed = handingOver.sorted()
        return try await storeReader.read { store in
            let handedOver = try listed.compactMap { try store.download(id: $0) }
            // Of every app, and finishing: only this app's, once the store says finished (before,
            // the download is among those that have not ended).
            let finishing = try onTheirWay.sorted().compactMap { try store.download(id: $0) }.filter {
                $0.bundleIdentifier == app && $0.state == .finished && $0.descriptor.kind == .url
            }
            return handedOver + finishing
        }
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
