/*
Abstract:
Where background sessions keep files: the folder finished downloads are handed over in, and the partial files resume data names.
*/

import BackgroundAssetsIPC
import Foundation

/// The files of background sessions under one device root.
///
/// A finished download is handed over (by the queue, a rename) in the session's hand-over folder,
/// where the app's delegate receives it; a partial file kept for resume data waits in the service's
/// staging folder, under the app's name, until a task continues from it.
public struct BackgroundSessionFiles: Sendable {
    /// The device root.
    public let paths: DevicePaths

    /// Creates the files of a device root.
    public init(paths: DevicePaths) {
        self.paths = paths
    }

    /// The store of every app's sessions.
    public var database: URL { paths.urlSessionDatabase }

    /// The folder a session's files are handed over in: inside the app group's container when the
    /// session names one (`sharedContainerIdentifier`), else inside the app's own folder. Apple's
    /// system uses `Library/Caches/com.apple.nsurlsessiond/Downloads/BUNDLE-ID` the same way.
    public func handOverDirectory(for app: String, appGroup: String?) -> URL? {
        let base: URL?
        if let appGroup, !appGroup.isEmpty {
            base = paths.container(forAppGroup: appGroup)
        } else {
            base = paths.appDirectory(forBundleIdentifier: app)?.appending(path: "Data", directoryHint: .isDirectory)
        }
        guard DevicePaths.isSafePathComponent(app) else { return nil }
        return base?.appending(path: "Library/Caches/com.apple.nsurlsessiond/Downloads", directoryHint: .isDirectory)
            .appending(path: app, directoryHint: .isDirectory)
    }

    /// The prefix of the files handed over to sessions, as Apple names them.
    public static let handOverPrefix = "CFNetworkDownload_"

    /// Deletes handed-over files no session will deliver, left by a crash of the app or the service.
    /// - Parameter referenced: The files waiting events still name.
    /// - Returns: How many files were removed.
    @discardableResult
    public func removeLeftovers(for app: String, appGroup: String?, keeping referenced: Set<String> = []) -> Int {
        guard let directory = handOverDirectory(for: app, appGroup: appGroup),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        let leftovers = names.filter { $0.hasPrefix(Self.handOverPrefix) }
            .map { directory.appending(path: $0, directoryHint: .notDirectory) }
            .filter { !referenced.contains($0.path) }
        for file in leftovers { try? FileManager.default.removeItem(at: file) }
        return leftovers.count
    }

    // MARK: - Partial files

    /// The folder of an app's kept partial files, in staging, where no app looks.
    public func partialFilesDirectory(for app: String) -> URL? {
        guard DevicePaths.isSafePathComponent(app) else { return nil }
        return paths.stagingDirectory.appending(path: "url-sessions", directoryHint: .isDirectory)
            .appending(path: app, directoryHint: .isDirectory)
    }

    /// A new, unused name for a partial file of the app, and where it goes.
    public func newPartialFile(for app: String) -> (name: String, url: URL)? {
        let name = "\(UUID.random().uuidString).part"
        return partialFilesDirectory(for: app).map { (name, $0.appending(path: name, directoryHint: .notDirectory)) }
    }

    /// The partial file resume data names, if it is one of this app's: a name from another app's
    /// resume data, or one that tries to leave the folder, names nothing.
    public func partialFile(named name: String, for app: String) -> URL? {
        guard name.hasSuffix(".part"), DevicePaths.isSafePathComponent(name),
              let file = partialFilesDirectory(for: app)?.appending(path: name, directoryHint: .notDirectory),
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        return file
    }

    /// Deletes the partial file a piece of resume data names.
    public func removePartialFile(of resumeData: Data, for app: String) {
        guard let decoded = try? BackgroundResumeData(decoding: resumeData),
              let file = partialFile(named: decoded.partialFileName, for: app) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// Deletes kept partial files older than `age`: resume data nobody used within a session's
    /// longest timeout will not be used.
    /// - Returns: How many files were removed.
    @discardableResult
    public func removePartialFiles(olderThan age: TimeInterval, now: Date) -> Int {
        let root = paths.stagingDirectory.appending(path: "url-sessions", directoryHint: .isDirectory)
        var removed = 0
        for app in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
            let folder = root.appending(path: app, directoryHint: .isDirectory)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                let file = folder.appending(path: name, directoryHint: .notDirectory)
                let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
                if let modified, now.timeIntervalSince(modified) > age, (try? FileManager.default.removeItem(at: file)) != nil {
                    removed += 1
                }
            }
        }
        return removed
    }
}
