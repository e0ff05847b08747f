/*
Abstract:
How a `DownloadRow` maps to the columns of the downloads table, in both directions.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadStore {
    /// The columns every query selects, in the order ``readRow(_:)`` reads them.
    static let columns = """
        id, app_bundle_id, identifier, unique_id, kind, url, request_headers, app_group, file_size, essential, \
        priority, state, foreground, bytes_durable, expected_length, etag, last_modified, attempts, \
        last_error_domain, last_error_code, last_error_message, created_at, updated_at, next_attempt_at, \
        last_progress_at
        """

    static let insertSQL = """
        INSERT INTO downloads (app_bundle_id, identifier, unique_id, kind, url, request_headers, app_group, \
        file_size, essential, priority, state, foreground, bytes_durable, attempts, created_at, updated_at, \
        next_attempt_at, last_error_domain, last_error_code, last_error_message) \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?)
        """

    /// The columns a change may write, in the order ``updateValues(_:)`` gives their values.
    static let updatableColumns = [
        "url", "request_headers", "file_size", "essential", "priority", "state", "foreground", "bytes_durable",
        "expected_length", "etag", "last_modified", "attempts", "last_error_domain", "last_error_code",
        "last_error_message", "updated_at", "next_attempt_at", "last_progress_at",
    ]

    /// An update of the given columns of one row (by index into ``updatableColumns``), its last
    /// parameter the row id.
    ///
    /// Only what changed is written: SQLite rewrites the entry of every index over a column the
    /// statement sets, changed or not, and the run order, the per-app and the active-download
    /// indexes all cover `state` or the columns next to it.
    static func updateSQL(columns: [Int]) -> String {
        let assignments = columns.map { "\(updatableColumns[$0]) = ?" }.joined(separator: ", ")
        return "UPDATE downloads SET \(assignments) WHERE id = ?"
    }

    /// The row a new download becomes: waiting, due now (or parked behind its origin's probe), no
    /// progress; its id is filled in after the insert.
    static func newRow(_ download: NewDownload, at now: Date) -> DownloadRow {
        var descriptor = download.descriptor
        descriptor.state = .waiting
        let stored = Date(timeIntervalSince1970: Double(milliseconds(now)) / 1000)
        return DownloadRow(
            id: 0, bundleIdentifier: download.bundleIdentifier, descriptor: descriptor,
            isForeground: download.isForeground, bytesDurable: 0, expectedLength: nil, entityTag: nil,
            lastModified: nil, attempts: 0, lastError: download.parkedBecause, createdAt: stored, updatedAt: stored,
            nextAttemptAt: download.parkedBecause == nil ? stored : parkedUntilReachable, lastProgressAt: nil)
    }

    static func insertValues(_ row: DownloadRow) -> [SQLiteValue?] {
        let descriptor = row.descriptor
        let now = Int64(row.createdAt.timeIntervalSince1970 * 1000)
        return [
            .text(row.bundleIdentifier), .text(descriptor.identifier), .text(descriptor.uniqueIdentifier),
            .text(descriptor.kind.rawValue), .text(descriptor.url), .text(encodeHeaders(descriptor.headers)),
            .text(descriptor.applicationGroupIdentifier), .int(descriptor.fileSize), .bool(descriptor.isEssential),
            .int(descriptor.priority), .int(descriptor.state.rawValue), .bool(row.isForeground),
            .integer(now), .integer(now), .integer(milliseconds(row.nextAttemptAt)),
            row.lastError.map { .text($0.domain) }, row.lastError.map { .int($0.code) },
            row.lastError.map { .text($0.message) },
        ]
    }

    /// The values of ``updatableColumns`` for a row.
    static func updateValues(_ row: DownloadRow) -> [SQLiteValue?] {
        let descriptor = row.descriptor
        return [
            .text(descriptor.url), .text(encodeHeaders(descriptor.headers)), .int(descriptor.fileSize),
            .bool(descriptor.isEssential), .int(descriptor.priority), .int(descriptor.state.rawValue),
            .bool(row.isForeground), .integer(row.bytesDurable), row.expectedLength.map { .integer($0) },
            row.entityTag.map { .text($0) }, row.lastModified.map { .text($0) }, .int(row.attempts),
            row.lastError.map { .text($0.domain) }, row.lastError.map { .int($0.code) },
            row.lastError.map { .text($0.message) }, .integer(milliseconds(row.updatedAt)),
            .integer(milliseconds(row.nextAttemptAt)), row.lastProgressAt.map { .integer(milliseconds($0)) },
        ]
    }

    static func readRow(_ row: SQLiteRow) throws -> DownloadRow {
        let id = row.int64(0)
        guard let kind = DownloadDescriptor.Kind(rawValue: row.text(4)) else {
            throw DaemonError.corruptRow(id: id, column: "kind")
        }
        guard let state = DownloadDescriptor.State(rawValue: row.int(11)) else {
            throw DaemonError.corruptRow(id: id, column: "state")
        }
        guard let headers = decodeHeaders(row.text(6)) else {
            throw DaemonError.corruptRow(id: id, column: "request_headers")
        }
        let descriptor = DownloadDescriptor(
            identifier: row.text(2), uniqueIdentifier: row.text(3), kind: kind, url: row.text(5), headers: headers,
            fileSize: row.int(8), applicationGroupIdentifier: row.text(7), priority: row.int(10),
            isEssential: row.bool(9), state: state)
        let lastError = row.optionalText(18).map { domain in
            WireFailure(domain: domain, code: row.int(19), message: row.text(20))
        }
        return DownloadRow(
            id: id, bundleIdentifier: row.text(1), descriptor: descriptor, isForeground: row.bool(12),
            bytesDurable: row.int64(13), expectedLength: row.optionalInt64(14), entityTag: row.optionalText(15),
            lastModified: row.optionalText(16), attempts: row.int(17), lastError: lastError,
            createdAt: date(row.int64(21)), updatedAt: date(row.int64(22)), nextAttemptAt: date(row.int64(23)),
            lastProgressAt: row.optionalInt64(24).map(date))
    }

    /// Times are stored as whole milliseconds since 1970: sortable integers, exact round trips.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    private static func encodeHeaders(_ headers: [String: String]) -> String {
        guard !headers.isEmpty, let data = try? JSONEncoder().encode(headers) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func decodeHeaders(_ text: String) -> [String: String]? {
        // Nearly every row has no headers; skipping the decoder for them keeps 10,000-row reads fast.
        if text == "{}" { return [:] }
        return try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }
}

extension DownloadRow {
    /// Cuts the times a change may set to whole milliseconds, as the store writes them.
    mutating func roundTimesToStoredPrecision() {
        updatedAt = DownloadStore.date(DownloadStore.milliseconds(updatedAt))
        nextAttemptAt = DownloadStore.date(DownloadStore.milliseconds(nextAttemptAt))
        lastProgressAt = lastProgressAt.map { DownloadStore.date(DownloadStore.milliseconds($0)) }
    }

    /// The same row with the id the database assigned.
    func with(id: Int64) -> DownloadRow {
        DownloadRow(
            id: id, bundleIdentifier: bundleIdentifier, descriptor: descriptor, isForeground: isForeground,
            bytesDurable: bytesDurable, expectedLength: expectedLength, entityTag: entityTag,
            lastModified: lastModified, attempts: attempts, lastError: lastError, createdAt: createdAt,
            updatedAt: updatedAt, nextAttemptAt: nextAttemptAt, lastProgressAt: lastProgressAt)
    }
}
