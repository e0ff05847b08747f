/*
Abstract:
A session as it stands on this device: whether its video is on disk, and how a download becomes that file.
*/

import Foundation

/// A session paired with its place in the app group container.
///
/// The state is never stored: it is read from the disk each time, so a video removed by the
/// system (or by `backgroundassets-debug purge`) shows as remote again and is fetched anew.
public struct LocalSession: Sendable, Identifiable, Equatable {
    /// Whether a session's video is on the device.
    public enum State: String, Sendable, Equatable, Codable {
        /// The video must be downloaded before it can be watched.
        case remote
        /// The video is on disk with the size the manifest gives.
        case downloaded
    }

    /// The session as the manifest describes it.
    public let session: Session
    /// The path of the app group's folder of videos: one string that every local session of a manifest shares.
    private let sessionsDirectoryPath: String

    /// Where the session's video is kept.
    ///
    /// It is worked out when asked for rather than kept: on Linux a `URL` takes about 400 bytes, and
    /// the extension pairs every session of a manifest with its file, 100,000 of them at a time.
    public var fileURL: URL {
        URL(filePath: filePath, directoryHint: .notDirectory)
    }

    /// ``fileURL``'s path, made without a `URL`: the app and the extension look at every session's
    /// file at each launch, and building and taking apart a URL for each cost more than the look.
    public var filePath: String {
        sessionsDirectoryPath + "/" + session.fileName
    }

    /// Pairs a session with its file in the app group container.
    public init(session: Session, settings: SharedSettings) {
        self.session = session
        self.sessionsDirectoryPath = settings.sessionsDirectoryPath
    }

    public var id: Session.ID { session.id }

    /// `.downloaded` when the video is on disk with exactly the manifest's size, else `.remote`.
    public var state: State {
        FileStatus(path: filePath)?.size == Int64(session.fileSize) ? .downloaded : .remote
    }

    /// Checks a finished download against the manifest, then moves it into place.
    ///
    /// The size and SHA-256 are checked before anything on disk changes, so a corrupt
    /// download never replaces a good video. The move is a rename: the downloaded file must be
    /// in the same app group container, where Background Assets hands files over.
    /// - Parameter downloadedFile: The file the download produced.
    /// - Throws: ``SessionKitError/verificationFailed(session:reason:)`` when the file is not the
    ///   session's video, or a file error when it can't be read or moved.
    public func moveDownloadedFile(from downloadedFile: URL) throws {
        let sourcePath = downloadedFile.path
        let size = FileStatus(path: sourcePath)?.size ?? -1
        guard size == Int64(session.fileSize) else {
            throw SessionKitError.verificationFailed(
                session: session.id, reason: "it is \(size) bytes, the manifest says \(session.fileSize)")
        }
        let digest = try SHA256.hexDigest(ofFileAt: downloadedFile)
        guard digest == session.sha256 else {
            throw SessionKitError.verificationFailed(
                session: session.id, reason: "its SHA-256 is \(digest), the manifest says \(session.sha256)")
        }
        // rename(2) replaces an older copy atomically: a reader sees the old video or the new
        // one, never a missing file. (FileManager.replaceItemAt does the same on Apple
        // platforms but fails on Linux's Foundation when the destination exists.) The folder is
        // created the first time only, when the rename finds it missing.
        let filePath = filePath
        if rename(sourcePath, filePath) == 0 { return }
        guard errno == ENOENT, FileManager.default.fileExists(atPath: sourcePath) else {
            throw SessionKitError.fileUnwritable(path: filePath, reason: errnoText())
        }
        do {
            try FileManager.default.createDirectory(atPath: sessionsDirectoryPath, withIntermediateDirectories: true)
        } catch {
            throw SessionKitError.fileUnwritable(path: filePath, reason: error.localizedDescription)
        }
        guard rename(sourcePath, filePath) == 0 else {
            throw SessionKitError.fileUnwritable(path: filePath, reason: errnoText())
        }
    }
}
