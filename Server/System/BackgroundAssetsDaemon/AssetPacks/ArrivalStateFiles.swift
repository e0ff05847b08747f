/*
Abstract:
Where a pack archive's download keeps its arrival's saved state, beside its staging file, and how it is written, read and deleted.
*/

import AssetPackArchive
import BackgroundAssetsIPC
import Foundation

/// The saved state of one download's arrival (``ArrivingArchive``): `staging/ROW.arrival`, rewritten
/// at each checkpoint, and `staging/ROW.arrival-header`, the archive's header bytes it refers to,
/// written when they change (once the header is whole, never again).
///
/// Both live beside the download's staging file, in the service's own folder, and go with the
/// download: when its pack is unpacked or forgotten, or when the service starts and finds no
/// download in the queue that owns them.
struct ArrivalStateFiles: Sendable {
    static let stateSuffix = ".arrival"
    static let headerSuffix = ".arrival-header"

    let state: URL
    let header: URL

    init(paths: DevicePaths, rowID: Int64) {
        self.init(folder: paths.stagingDirectory, rowID: rowID)
    }

    /// The files of a download in `folder`, the service's staging folder.
    init(folder: URL, rowID: Int64) {
        state = folder.appending(path: "\(rowID)\(Self.stateSuffix)", directoryHint: .notDirectory)
        header = folder.appending(path: "\(rowID)\(Self.headerSuffix)", directoryHint: .notDirectory)
    }

    /// Whether a state was saved.
    var exists: Bool { access(state.path, F_OK) == 0 }

    /// Writes the header bytes, synced with their folder's entry, before any state that refers to them.
    /// - Throws: ``AssetPackArchiveError`` (`.io`).
    func saveHeader(_ bytes: [UInt8]) throws(AssetPackArchiveError) {
        try write(Data(bytes), to: header)
        let folder = open(header.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if folder >= 0 { close(folder) } }
        guard folder >= 0, fsync(folder) == 0 else {
            throw AssetPackArchiveError(.io, path: header.path, problem: "its folder cannot be synced (\(errnoText())).")
        }
    }

    /// Replaces the state: a crash leaves the old one or the new one, whole.
    /// - Throws: ``AssetPackArchiveError`` (`.io`).
    func save(_ arrival: ArchiveArrivalState) throws(AssetPackArchiveError) {
        try write(Data(arrival.encoded), to: state)
    }

    /// Reads the state and the header bytes it refers to.
    /// - Throws: ``AssetPackArchiveError`` (`.unresumable`) when either is missing, cut short or damaged.
    func load() throws(AssetPackArchiveError) -> (state: ArchiveArrivalState, header: [UInt8]) {
        let bytes = try read(state)
        let arrival = try ArchiveArrivalState(decoding: bytes, path: state.path)
        // No header yet is the same as an empty one: the state says how many bytes it counts.
        let header = access(header.path, F_OK) == 0 ? try read(header) : []
        return (arrival, header)
    }

    /// Deletes both files.
    func delete() {
        unlink(state.path)
        unlink(header.path)
    }

    /// The download a file of the staging folder is the saved state of, from its name.
    static func rowID(ofFileNamed name: String) -> Int64? {
        guard let suffix = [headerSuffix, stateSuffix].first(where: name.hasSuffix) else { return nil }
        return Int64(name.dropLast(suffix.count))
    }

    private func write(_ data: Data, to url: URL) throws(AssetPackArchiveError) {
        if let problem = AtomicFileWriter.write(data, to: url, followingFolderLink: false) {
            throw AssetPackArchiveError(.io, path: url.path, problem: "cannot be written (\(problem)).")
        }
    }

    /// Reads a whole file, refusing one larger than a header can make it.
    private func read(_ url: URL) throws(AssetPackArchiveError) -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AssetPackArchiveError(.unresumable, path: url.path, problem: "cannot be opened (\(errnoText())).")
        }
        defer { close(descriptor) }
        var status = stat()
        let limit = Int64(AssetPackArchiveFormat.prefixLength + AssetPackArchiveFormat.maximumHeaderLength) + (1 << 20)
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int64(status.st_size) <= limit else {
            throw AssetPackArchiveError(.unresumable, path: url.path, problem: "is not a saved state's file.")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { pread(descriptor, $0 + done, buffer.count - done, off_t(done)) } ?? 0
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw AssetPackArchiveError(.unresumable, path: url.path, problem: "cannot be read whole (\(errnoText())).")
            }
            done += count
        }
        return bytes
    }
}
