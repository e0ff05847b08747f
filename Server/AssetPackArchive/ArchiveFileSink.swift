/*
Abstract:
Writes an archive's files into a staging folder while its bytes arrive, so that installing it needs no second pass over them.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// The files of an arriving archive, written into a folder of their own as their bytes come.
///
/// An ``AssetPackArchiveDigester`` given a sink hands it the header once it is read, then each
/// file's bytes in order. The sink creates the pack's folders and files with the same
/// `FolderMaker` as ``AssetPackArchiveReader/copyFiles(into:progress:)`` (exclusively, never
/// following a link) and starts their write-back as it goes, but without reading the archive again. Nothing it writes
/// is trusted: the unpack takes the folder only once the archive's digests were checked, and syncs
/// it before making it visible. On the first error the sink stops and says why: from then on the
/// digester leaves every byte to the archive, which the unpack copies the files out of when the
/// sink had stored none; bytes it had stored are lost with it, and their transfer starts over.
///
/// A download that must outlive a restart of the service takes the sink's unsynced writes at each
/// checkpoint (``takeUnsyncedWrites()``) and syncs them before it saves the sink's ``position``,
/// from which a sink resumes (``init(resuming:in:header:expecting:)``).
public final class ArchiveFileSink: @unchecked Sendable {
    // Used by one digester at a time, under its owner's lock; hence the unchecked Sendable.

    /// The folder the files go into; it must not exist yet.
    public let folder: URL
    /// The pack version the archive must hold for its files to be written.
    private let expected: AssetPackDownloadIdentifier?
    // Internal rather than private: a sink resuming at a saved position sets them (+Resuming).
    var header: AssetPackArchiveHeader?
    var folders: FolderMaker
    var output: Int32 = -1
    var outputIndex = -1
    var written: Int64 = 0
    /// Where the bytes whose write-back has not been started yet begin, in the current file.
    var writeBackStart: Int64 = 0
    /// Files ended since the unsynced writes were last taken, still open so one sync covers them.
    var endedFiles: [Int32] = []
    /// Folders that gained an entry since then: their entries must be synced too.
    var changedFolders: Set<String> = []
    /// Write-back is started for this many bytes at a time: a transfer hands over pieces of tens
    /// of kilobytes, and a system call for each cost a sixth of the transfers' CPU.
    static let writeBackBatch: Int64 = 1 << 20
    var filesEnded = 0
    /// Why the sink stopped writing, if it did.
    public private(set) var problem: String?

    /// Creates a sink that writes into `folder`, which it creates when the header arrives.
    /// - Parameters:
    ///   - folder: A folder that does not exist yet.
    ///   - expected: The pack version the download is for: a header naming another writes nothing,
    ///     so that no archive but the one asked for creates files before its digests are checked.
    public init(folder: URL, expecting expected: AssetPackDownloadIdentifier? = nil) {
        self.folder = folder
        self.expected = expected
        folders = FolderMaker(root: folder)
    }

    deinit {
        closeOutput()
        closeEndedFiles()
    }

    /// Whether every file of the header was written whole.
    public var isComplete: Bool {
        problem == nil && header.map { filesEnded == $0.files.count } == true
    }

    /// Deletes whatever the sink wrote.
    public func discard() {
        closeOutput()
        closeEndedFiles()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The header arrived: creates the folder and the pack's folders.
    func headerRead(_ header: AssetPackArchiveHeader) {
        guard problem == nil, self.header == nil else { return }
        self.header = header
        if let expected, header.assetPackID != expected.packID || header.version != expected.version {
            return stop("the archive holds \(header.assetPackID) version \(header.version), not \(expected.packID) version \(expected.version)")
        }
        guard mkdir(folder.path, 0o755) == 0 else { return stop("cannot create \(folder.path) (\(errnoText()))") }
        changedFolders.insert(folder.deletingLastPathComponent().path)
        changedFolders.insert(folder.path)
        do {
            for directory in header.directories {
                try folders.make(directory, archive: folder.path)
                changedFolders.insert(folder.appending(path: directory).deletingLastPathComponent().path)
            }
        } catch {
            stop(error.problem)
        }
    }

    /// The next bytes of file `index` of the header.
    func write(_ bytes: UnsafeRawBufferPointer, toFile index: Int) {
        guard problem == nil, open(index) else { return }
        do {
            try FileDescriptorIO.write(output, bytes)
        } catch {
            return stop("cannot write \(header?.files[index].path ?? "") (\(error.reason))")
        }
        written += Int64(bytes.count)
        if written - writeBackStart >= Self.writeBackBatch { startWriteBack() }
    }

    /// File `index` has all its bytes (an empty one has none).
    func fileEnded(_ index: Int) {
        guard problem == nil, open(index) else { return }
        startWriteBack()
        // Kept open for the next checkpoint's sync, up to a batch: a pack of thousands of small
        // files must not run out of descriptors, so a full batch is synced at once.
        if endedFiles.count >= UnsyncedFiles.batch, let failed = syncEndedFiles() {
            return stop("cannot sync \(failed) (\(errnoText()))")
        }
        endedFiles.append(output)
        output = -1
        filesEnded = index + 1
    }

    /// Makes file `index` the one written to, creating it when it is new.
    private func open(_ index: Int) -> Bool {
        guard index != outputIndex else { return output >= 0 }
        closeOutput()
        guard let header, index < header.files.count else {
            stop("file \(index) is not in the header")
            return false
        }
        do {
            output = try folders.createFile(header.files[index].path, archive: folder.path)
            changedFolders.insert(folder.appending(path: header.files[index].path).deletingLastPathComponent().path)
        } catch {
            stop(error.problem)
            return false
        }
        outputIndex = index
        written = 0
        writeBackStart = 0
        return true
    }

    /// Starts writing the current file's bytes since the last start out to the disk, without
    /// waiting: the unpack's sync then finds most of them there already.
    private func startWriteBack() {
        guard output >= 0, written > writeBackStart else { return }
        WriteBack.start(output, from: writeBackStart, count: Int(written - writeBackStart))
        writeBackStart = written
    }

    func closeOutput() {
        if output >= 0 { close(output) }
        output = -1
    }

    func closeEndedFiles() {
        for descriptor in endedFiles { close(descriptor) }
        endedFiles = []
    }

    /// Syncs and closes the ended files kept open.
    /// - Returns: The path of the first that could not be synced, if one could not.
    private func syncEndedFiles() -> String? {
        defer { closeEndedFiles() }
        let failed = endedFiles.firstIndex { fdatasync($0) != 0 }
        return failed.map { header?.files[filesEnded - endedFiles.count + $0].path ?? "" }
    }

    private func stop(_ problem: String) {
        closeOutput()
        closeEndedFiles()
        self.problem = problem
    }
}
