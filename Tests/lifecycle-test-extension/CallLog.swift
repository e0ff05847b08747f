/*
Abstract:
Appends one JSON line per entry-point call to a file in the app group container, for the tests to read.
*/

import Foundation

/// One thing the test extension did, as one line of `calls.jsonl`.
///
/// The tests decode the same keys (Tests/EndToEndTests/LifecycleCallRecord.swift); every field but
/// `entryPoint`, `pid` and `time` is optional and left out when it does not apply.
struct CallRecord: Encodable, Sendable {
    /// What happened: `downloads`, `returned`, `finished`, `failed`, `challenge`, `willTerminate`,
    /// `scheduleInsideDownloads`, `rescheduled`, `exclusiveControlAcquired`, `exclusiveControlReleased`.
    var entryPoint: String
    /// The content request's raw value (1 install, 2 update, 3 periodic), for `downloads`.
    var request: Int?
    /// The download's identifier.
    var download: String?
    /// Whether the download was essential when it was delivered.
    var isEssential: Bool?
    /// Whether the download's class is exactly `BAURLDownload` (the manifest's download is a private subclass).
    var isExactlyURLDownload: Bool?
    /// The error's domain, for `failed` and for calls that threw.
    var errorDomain: String?
    /// The error's code.
    var errorCode: Int?
    /// The error's message.
    var errorMessage: String?
    /// The manifest's path (`downloads`) or the finished file's path (`finished`).
    var path: String?
    /// Whether that file existed when the entry point was called.
    var fileExists: Bool?
    /// That file's permission bits; the manifest must be a read-only copy. (Its mode, not `access(2)`,
    /// which says every file is writable when the tests run as root.)
    var fileMode: Int?
    /// Where a finished file was moved to.
    var movedTo: String?
    /// The identifiers `downloads(for:manifestURL:extensionInfo:)` returned, for `returned`.
    var returned: [String]?
    /// `BAAppExtensionInfo.restrictedDownloadSizeRemaining`, for `downloads`.
    var restrictedDownloadSizeRemaining: Int?
    /// `BAAppExtensionInfo.restrictedEssentialDownloadSizeRemaining`, for `downloads`.
    var restrictedEssentialDownloadSizeRemaining: Int?
    /// `BA_BUNDLE_IDENTIFIER` as the service set it, for `downloads`.
    var bundleIdentifier: String?
    /// `BA_PROCESS_ROLE` as the service set it, for `downloads`.
    var role: String?
    /// The extension's process id: one launch, one pid.
    var pid: Int32 = ProcessInfo.processInfo.processIdentifier
    /// When it was recorded, in seconds since 1970.
    var time: Double = Date().timeIntervalSince1970

    init(_ entryPoint: String) {
        self.entryPoint = entryPoint
    }
}

/// Appends records to a JSON-lines file.
struct CallLog: Sendable {
    /// The file records are appended to.
    let file: URL

    /// Appends one record as one line.
    ///
    /// One `write(2)` on a descriptor opened with `O_APPEND` keeps each line whole even when an
    /// exclusive-control task and an entry point record at the same moment.
    func append(_ record: CallRecord) {
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
