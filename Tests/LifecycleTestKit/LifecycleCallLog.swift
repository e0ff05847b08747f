/*
Abstract:
Appends one JSON line per record to a file in the app group container, for the lifecycle tests to read.
*/

import Foundation

/// Appends records to a JSON-lines file.
public struct LifecycleCallLog: Sendable {
    /// The file records are appended to.
    public let file: URL

    /// Creates a log that appends to a file, creating it and its folder on the first record.
    /// - Parameter file: `calls.jsonl` or `app-calls.jsonl` in ``LifecycleTestContainer/recordsFolder(in:)``.
    public init(file: URL) {
        self.file = file
    }

    /// Appends one record as one line; a record that cannot be written is dropped.
    ///
    /// One `write(2)` on a descriptor opened with `O_APPEND` keeps each line whole even when two
    /// callbacks, or an exclusive-control task and an entry point, record at the same moment.
    /// - Parameter record: The record.
    public func append(_ record: LifecycleCallRecord) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
