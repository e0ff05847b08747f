/*
Abstract:
Reads the trace file as it grows: whole lines only, each once, starting over when the file is replaced.
*/

import BackgroundAssetsIPC
import Foundation

/// Returns the entries appended to `system/trace.jsonl` since it was last asked.
///
/// The service appends a line at a time, so a read can end in the middle of one; that part is kept
/// until its newline arrives. A file that shrinks or is replaced (a reset, a new device root) is
/// read again from its start.
struct TraceReader {
    /// The trace file.
    let file: URL
    private var offset: UInt64 = 0
    private var fileNumber: UInt64?
    private var partialLine = Data()
    /// How many times the file was read from its start; when it changes, the entries read before
    /// belong to a file that was replaced or cut short.
    private(set) var generation = 0

    init(file: URL) {
        self.file = file
    }

    /// Whether the file exists yet.
    var fileExists: Bool { FileManager.default.fileExists(atPath: file.path) }

    /// The entries appended since the last call: on the first call, every entry in the file.
    /// - Returns: The new entries, in file order; none while the file does not exist.
    mutating func newEntries() -> [TraceEntry] {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let size = (attributes[.size] as? NSNumber)?.uint64Value,
              let handle = try? FileHandle(forReadingFrom: file)
        else { return [] }
        defer { try? handle.close() }
        let number = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        if size < offset || number != fileNumber {
            offset = 0
            partialLine = Data()
            fileNumber = number
            generation += 1
        }
        guard size > offset else { return [] }
        do {
            try handle.seek(toOffset: offset)
            let data = try handle.read(upToCount: Int(size - offset)) ?? Data()
            offset += UInt64(data.count)
            partialLine.append(data)
        } catch {
            // Read again on the next call; the offset has not moved past anything unread.
            return []
        }
        guard let newline = partialLine.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let complete = Data(partialLine[partialLine.startIndex...newline])
        partialLine = Data(partialLine[partialLine.index(after: newline)...])
        return TraceEntry.entries(in: complete)
    }
}
