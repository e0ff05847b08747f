/*
Abstract:
The install lifecycle's content request: what the extension chose, what it failed to do, and a restart in the middle.
*/

import BackgroundAssetsIPC
import Foundation

extension InstallLifecycle {
    /// What the extension chose among an app's managed asset packs (`shouldDownload(_:)`).
    enum PackSelection {
        /// The extension is not a managed one; the note says why, when the service knows.
        case notManaged(note: String?)
        /// The packs it accepted were scheduled; these rows are the essential ones.
        case accepted(essentialRows: [(id: Int64, size: Int64)])
    }

    /// The extension was asked for downloads: what it logs from now on can explain an empty answer.
    mutating func contentRequested(app: String, at time: Date) {
        update(app) { $0.contentRequested = time }
    }

    /// A content request ended without downloads to wait for (no extension, no manifest, in-app
    /// content off, a refused manifest): an install or update ends, with the note saying why.
    /// - Parameters:
    ///   - contentFailure: Why the install got no content at all, when its manifest could not be
    ///     fetched: `install --wait` reports it and exits with its own status.
    mutating func contentRequestEnded(app: String, kind: ContentRequestKind, note: String?,
                                      contentFailure: String? = nil) -> [InstallAction] {
        guard kind != .periodic else { return [] }
        return end(app, note: note, contentFailure: contentFailure)
    }

    /// The extension is about to be asked which packs to download, or returned downloads with
    /// essential ones among them: an install holds the app's other downloads meanwhile.
    mutating func essentialDownloadsComing(app: String, kind: ContentRequestKind) -> [InstallAction] {
        guard kind != .periodic, isInstalling(app) else { return [] }
        return [.holdOtherDownloads(app: app)]
    }

    /// What the extension's `downloads(for:...)` returned was queued: the essential rows begin the
    /// install's essential phase; with none, the install ends.
    /// - Parameters:
    ///   - app: The app.
    ///   - kind: The content request's kind; a periodic request has no install.
    ///   - returnedAny: Whether the extension returned any download at all.
    ///   - essentialRows: The essential downloads queued, with their declared sizes.
    ///   - loggedErrors: The errors the extension logged since a date, read only to explain an empty answer.
    mutating func downloadsQueued(app: String, kind: ContentRequestKind, returnedAny: Bool,
                                  essentialRows: [(id: Int64, size: Int64)],
                                  loggedErrors: (Date) -> [String]) -> [InstallAction] {
        guard kind != .periodic, let run = run(of: app) else { return [] }
        guard essentialRows.isEmpty else {
            beginEssentialPhase(app, rows: essentialRows, arePacks: false)
            return progressPush(of: app)
        }
        guard !returnedAny else { return end(app, note: nil) }
        let errors = run.contentRequested.map(loggedErrors) ?? []
        let note = errors.isEmpty ? "The extension returned no downloads."
            : "The extension returned no downloads. It logged: " + errors.joined(separator: " / ")
        return end(app, note: note)
    }

    /// The extension answered `shouldDownload(_:)` and its packs were scheduled: an install waits for
    /// the essential ones, and the pack ends that came meanwhile count.
    /// - Parameters:
    ///   - app: The app.
    ///   - selection: What the extension chose.
    ///   - ended: The packs that ended while they were scheduled.
    mutating func packSelectionReturned(app: String, _ selection: PackSelection,
                                        ended: [AssetPackCoordinator.PackEnd]) -> [InstallAction] {
        guard isInstalling(app) else { return packsEnded(ended) }
        switch selection {
        case let .notManaged(note):
            return end(app, note: note)
        case let .accepted(essentialRows) where essentialRows.isEmpty:
            return packsEnded(ended) + end(app, note: nil)
        case let .accepted(essentialRows):
            beginEssentialPhase(app, rows: essentialRows, arePacks: true)
            let early = run(of: app)?.packEndsBeforeEssentialPhase ?? []
            update(app) { $0.packEndsBeforeEssentialPhase = [] }
            return progressPush(of: app) + packsEnded(ended) + packsEnded(early.map {
                AssetPackCoordinator.PackEnd(app: app, rowID: $0.rowID, packID: $0.packID, failure: $0.failure)
            })
        }
    }
}
