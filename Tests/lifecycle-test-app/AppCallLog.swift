/*
Abstract:
Appends one JSON line per launch-gate report and delegate callback to a file in the app group container.
*/

import Foundation

/// One thing the test app saw, as one line of `app-calls.jsonl`.
///
/// The tests decode the same keys (Tests/EndToEndTests/LifecycleCallRecord.swift).
struct AppRecord: Encodable, Sendable {
    /// What happened: `progress`, `launchable`, `gateFailed`, `delegateConnected`, `began`, `finished`, `failed`.
    var entryPoint: String
    /// The download's identifier, for callbacks.
    var download: String?
    /// The install's completed bytes, for `progress`.
    var completedBytes: Int64?
    /// The install's total bytes, for `progress`.
    var totalBytes: Int64?
    /// The essential downloads that ended, for `progress`.
    var essentialEnded: Int?
    /// The essential downloads in all, for `progress`.
    var essentialTotal: Int?
    /// The error's domain, for `failed` and `gateFailed`.
    var errorDomain: String?
    /// The error's code.
    var errorCode: Int?
    /// The error's message.
    var errorMessage: String?
    /// Whether the finished file existed when the callback ran.
    var fileExists: Bool?
    /// Where the finished file was moved to.
    var movedTo: String?
    /// The app's process id.
    var pid: Int32 = ProcessInfo.processInfo.processIdentifier
    /// When it was recorded, in seconds since 1970.
    var time: Double = Date().timeIntervalSince1970

    init(_ entryPoint: String) {
        self.entryPoint = entryPoint
    }
}

/// Appends records to a JSON-lines file, one `write(2)` per line so concurrent callbacks never interleave.
struct AppCallLog: Sendable {
    /// The file records are appended to.
    let file: URL

    /// Appends one record as one line.
    func append(_ record: AppRecord) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
