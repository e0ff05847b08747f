/*
Abstract:
The folders this process merges from several asset packs: one per set of pack versions, removed with the process.
*/

import Foundation
import Synchronization

/// Where ``AssetPackFileResolver/url(for:)`` puts a folder that several packs share, merged.
///
/// Apple says not to keep such a URL beyond the process, so every view lives in one folder of this
/// process's in the temporary directory, `BackgroundAssets-<pid>-<uuid>`, removed when the process
/// exits. A process that was killed cannot remove its own: the next process to make a view removes
/// the folder of every process that no longer runs. And a folder asked for again while the same
/// versions of the same packs are installed gets the view made before, so an app that resolves a
/// folder each time it shows it does not fill the disk with copies.
final class MergedFolderViews: Sendable {
    /// The views of this process, removed when it exits.
    static let shared: MergedFolderViews = {
        let views = MergedFolderViews(temporaryDirectory: FileManager.default.temporaryDirectory)
        atexit { MergedFolderViews.shared.removeOwnFolder() }
        return views
    }()

    /// What a view was made from: the path, and each pack that has the folder with its version.
    struct Key: Hashable, Sendable {
        var relativePath: String
        var packVersions: [String: Int]
    }

    private struct State {
        /// This process's folder, once the first view was made.
        var folder: URL?
        var views: [Key: URL] = [:]
    }

    static let folderPrefix = "BackgroundAssets-"
    private let temporaryDirectory: URL
    private let state = Mutex(State())

    /// Views in `temporaryDirectory`; tests pass a folder of their own.
    init(temporaryDirectory: URL) {
        self.temporaryDirectory = temporaryDirectory
    }

    /// The view made for `key`, or a new one that `make` fills.
    /// - Parameters:
    ///   - key: The path and the pack versions the view shows.
    ///   - make: Fills the empty folder it is given with the view's entries.
    /// - Returns: The view's folder, `relativePath` inside this process's folder.
    func view(for key: Key, make: (URL) throws -> Void) throws -> URL {
        try state.withLock { state in
            // A view someone deleted is made again rather than returned empty.
            if let view = state.views[key], FileManager.default.fileExists(atPath: view.path) { return view }
            let folder = try state.folder ?? makeOwnFolder()
            state.folder = folder
            let root = folder.appending(path: "\(state.views.count + 1)", directoryHint: .isDirectory)
            let view = key.relativePath.isEmpty ? root : root.appending(path: key.relativePath, directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: view, withIntermediateDirectories: true)
            try make(view)
            state.views[key] = view
            return view
        }
    }

    /// Removes this process's folder and every view in it; called when the process exits.
    func removeOwnFolder() {
        guard let folder = state.withLock({ $0.folder }) else { return }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Creates this process's folder, first removing those of processes that no longer run.
    private func makeOwnFolder() throws -> URL {
        removeFoldersOfEndedProcesses()
        let pid = ProcessInfo.processInfo.processIdentifier
        let folder = temporaryDirectory.appending(
            path: "\(Self.folderPrefix)\(pid)-\(UUID.random().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes the views of processes that ended without removing them (killed, or crashed).
    ///
    /// A folder whose process identifier now names another process is kept until that one ends
    /// too: a view is never removed under a process that may still read it.
    func removeFoldersOfEndedProcesses() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporaryDirectory.path)) ?? []
        for name in names {
            guard let pid = Self.processIdentifier(ofFolderNamed: name), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporaryDirectory.appending(path: name, directoryHint: .isDirectory))
        }
    }

    /// The process a folder of views belongs to, from `BackgroundAssets-<pid>-<uuid>`; `nil` for any other name.
    static func processIdentifier(ofFolderNamed name: String) -> pid_t? {
        guard name.hasPrefix(folderPrefix) else { return nil }
        let parts = name.dropFirst(folderPrefix.count).split(separator: "-", maxSplits: 1)
        guard parts.count == 2, UUID(uuidString: String(parts[1])) != nil, let pid = pid_t(parts[0]), pid > 0 else {
            return nil
        }
        return pid
    }
}
