/*
Abstract:
The failed-download notices waiting for an app's extension past the thousand its call queue holds, kept in a file until the queue drains.
*/

import BackgroundAssetsIPC
import Foundation

/// The `backgroundDownload(_:failedWithError:)` calls waiting for one app's extension beyond those in
/// its call queue, in a file, oldest first.
///
/// An install can refuse tens of thousands of returned downloads at once (past the app's allowance),
/// and each refusal is a call that carries the whole download: waiting in memory, they were most of
/// the service's peak at 100,000 sessions. The call queue holds ``batchSize`` of them at a time; the
/// rest are written here as they come and read back a batch at a time as the queue drains, in order.
/// The file is the process's: it goes when the extension ends, with the calls it was owed, as those
/// of the queue are abandoned.
final class ExtensionNoticeBacklog {
    /// How many notices the call queue holds at a time.
    static let batchSize = 1_000

    private let file: URL
    private let writer: FileHandle
    private let reader: FileHandle
    /// Bytes read from the file; those from ``position`` on are not decoded yet.
    private var buffer = Data()
    private var position = 0
    /// How many notices wait in the file.
    private(set) var count = 0

    /// Creates an empty backlog at `file`, replacing what an earlier process left there.
    init(file: URL) throws {
        self.file = file
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        writer = try FileHandle(forWritingTo: file)
        reader = try FileHandle(forReadingFrom: file)
    }

    deinit {
        try? writer.close()
        try? reader.close()
        unlink(file.path)
    }

    /// Adds notices after those waiting, one JSON line each (the encoder escapes newlines in strings).
    func append(_ calls: [ExtensionCall]) throws {
        var bytes = Data()
        for call in calls {
            // The protocol's own codec, as for the same calls on the wire: a flood of failures
            // (100,000 sessions past the allowance) goes through here, and Foundation's
            // JSONEncoder and JSONDecoder take about twice as long.
            bytes.append(contentsOf: try MessageCodec.encode(call))
            bytes.append(UInt8(ascii: "\n"))
        }
        try writer.write(contentsOf: bytes)
        count += calls.count
    }

    /// Removes and returns the next notices, at most ``batchSize``, in the order they were added.
    /// - Throws: When the file cannot be read, or holds a line that is not a notice.
    func takeBatch() throws -> [ExtensionCall] {
        var calls: [ExtensionCall] = []
        while calls.count < Self.batchSize, count > 0 {
            guard let newline = Self.newline(in: buffer, from: position) else {
                // Only the notice the last read cut is kept: each byte is moved at most once more.
                buffer = Data(buffer[position...])
                position = 0
                guard let more = try reader.read(upToCount: 256 * 1024), !more.isEmpty else {
                    throw CocoaError(.fileReadCorruptFile, userInfo: [
                        NSFilePathErrorKey: file.path, NSLocalizedDescriptionKey: "\(count) notices are missing from \(file.path)"])
                }
                buffer.append(more)
                continue
            }
            let line = buffer[position..<newline]
            position = newline + 1
            count -= 1
            calls.append(try MessageCodec.decode(ExtensionCall.self, from: line))
        }
        return calls
    }

    /// Where the next newline from `start` is, found with `memchr`: searched through this class's
    /// stored property, every byte compared was a dynamic exclusivity check, and that took half of
    /// taking a batch.
    private static func newline(in buffer: Data, from start: Data.Index) -> Data.Index? {
        let offset = start - buffer.startIndex
        return buffer.withUnsafeBytes { bytes -> Data.Index? in
            guard let base = bytes.baseAddress, offset < bytes.count,
                let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), bytes.count - offset)
            else { return nil }
            return buffer.startIndex + (UnsafeRawPointer(found) - base)
        }
    }
}
