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
    mutating func contentRequestEnded(app: String, kind: ContentRequestKind, note: String?) -> [InstallAction] {
        guard kind != .periodic else { return [] }
        return end(app, note: note)
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

    // MARK: - The extension

    /// The call that ends the install returned: the install ends now, or, while the extension runs,
    /// once it is done (it moves the files into place under exclusive control, which it asks for
    /// as its call returns), so a person opening the app at once finds its essential files.
    mutating func essentialOutcomesReturned(app: String, extensionConnected: Bool) -> [InstallAction] {
        guard extensionConnected else { return end(app, note: nil) }
        tracker.holdUntilExtensionIsDone(app)
        return []
    }

    /// The app's extension stayed idle for the idle grace, or ended: an install held for it ends.
    mutating func extensionDone(app: String) -> [InstallAction] {
        guard tracker.takeHeldForExtension(app) else { return [] }
        return end(app, note: nil)
    }

    /// The call that ends the install will never run or return.
    mutating func essentialOutcomesUndelivered(app: String, reason: String) -> [InstallAction] {
        end(app, note: "The extension did not receive every essential outcome (\(reason)).")
    }

    /// The content request's call will never run or return.
    mutating func contentRequestAbandoned(app: String, kind: ContentRequestKind, reason: String) -> [InstallAction] {
        contentRequestEnded(app: app, kind: kind, note: "The extension did not return downloads (\(reason)), so the app became launchable without essential assets.")
    }

    // MARK: - A restart in the middle

    /// The service started and found the app still installing: its essential downloads are still
    /// queued, and the install continues with them; with none left, it ends.
    /// - Parameters:
    ///   - run: The install, as it starts again.
    ///   - essentialRows: The app's essential rows the queue still has, with their declared sizes.
    mutating func resumed(_ run: InstallRun, essentialRows: [(id: Int64, size: Int64)]) -> [InstallAction] {
        let app = run.bundleIdentifier
        tracker[app] = run
        guard !essentialRows.isEmpty else {
            return end(app, note: "The service restarted during the install, with no essential download left.")
        }
        beginEssentialPhase(app, rows: essentialRows, arePacks: false)
        return [.holdOtherDownloads(app: app)]
    }
}
