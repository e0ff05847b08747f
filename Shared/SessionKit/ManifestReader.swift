/*
Abstract:
Reads a manifest's JSON as it arrives, validating each session as soon as it is read.
*/

import Foundation

/// Turns a manifest's bytes into a ``Manifest`` one session at a time.
///
/// A manifest of 100,000 sessions is 26 MB. Decoded with `JSONDecoder`, Foundation first holds a
/// tree of the whole document, then every field as an optional, then the sessions: the extension
/// reached 340 MiB, over the 100 MiB the system allows it. Read here, a session's fields are
/// collected from a 64 KiB piece of the file, checked by ``ManifestValidator``, and kept only as the
/// ``Session`` they make.
///
/// Mistakes are reported in the order a reader would want to fix them: a syntax mistake first,
/// wherever it is in the file, with its line and column; then the first field of the wrong type or
/// value, named by its path (`sessions[2].fileSize`) or its session.
struct ManifestReader {
    let source: String
    let baseURL: URL?

    /// Reads and validates a manifest.
    /// - Throws: ``SessionKitError`` naming the mistake, the field or the session at fault.
    func read(_ bytes: ManifestBytes) throws -> Manifest {
        do {
            var scanner = JSONPullScanner(nextChunk: try bytes.open())
            let manifest = try manifest(from: &scanner)
            try scanner.expectEnd()
            return manifest
        } catch let mistake as JSONPullScanner.Mistake {
            throw notJSON(mistake)
        } catch let error as SessionKitError {
            if case .fileUnreadable = error { throw error }
            // The reading stopped at the first field at fault; a syntax mistake later in the file
            // would make that field's message the wrong thing to fix first.
            var checker = JSONPullScanner(nextChunk: try bytes.open())
            do {
                try checker.skipValue()
                try checker.expectEnd()
            } catch let mistake as JSONPullScanner.Mistake {
                throw notJSON(mistake)
            }
            throw error
        }
    }

    private func manifest(from scanner: inout JSONPullScanner) throws -> Manifest {
        try expect(.object, at: "the top level", in: &scanner)
        try scanner.beginObject()
        var version: Int?
        var sessions: [Session]?
        var seen = Set<Manifest.CodingKeys>()
        while let key = try scanner.nextKey() {
            guard let field = Manifest.CodingKeys(stringValue: key) else {
                // Fields a later version of the format adds are passed over, as `JSONDecoder` does.
                try scanner.skipValue()
                continue
            }
            guard seen.insert(field).inserted else { throw malformed("`\(key)` appears twice") }
            switch field {
            case .version:
                version = try integer(at: key, from: &scanner)
            case .sessions:
                if try scanner.peekKind() == .null {
                    try scanner.null()
                } else {
                    sessions = try self.sessions(from: &scanner)
                }
            }
        }
        let validator = ManifestValidator(source: source, baseURL: baseURL)
        return Manifest(version: try validator.validVersion(version), sessions: try validator.validSessions(sessions))
    }

    /// The sessions, each validated as it is read.
    private func sessions(from scanner: inout JSONPullScanner) throws -> [Session] {
        try expect(.array, at: Manifest.CodingKeys.sessions.stringValue, in: &scanner)
        try scanner.beginArray()
        let validator = ManifestValidator(source: source, baseURL: baseURL)
        var sessions: [Session] = []
        var identifiers = Set<Session.ID>()
        while try scanner.hasNextElement() {
            let raw = try session(at: sessions.count, from: &scanner)
            let session = try validator.validate(raw, index: sessions.count)
            guard identifiers.insert(session.id).inserted else {
                throw SessionKitError.duplicateSessionIdentifier(path: source, identifier: session.id)
            }
            sessions.append(session)
        }
        // A list grown one session at a time has up to twice the room it needs; the copy has none
        // spare, 3 MiB less for the 100,000 sessions the extension holds while it builds its downloads.
        return sessions.withUnsafeBufferPointer { Array($0) }
    }

    /// One session's fields as the file gives them; `null` counts as missing, as it did for `JSONDecoder`.
    ///
    /// The paths that name a field in a message are made only for the message: with 100,000
    /// sessions, making them for every field took longer than reading the fields.
    private func session(at index: Int, from scanner: inout JSONPullScanner) throws -> RawSession {
        func path() -> String { "\(Manifest.CodingKeys.sessions.stringValue)[\(index)]" }
        try expect(.object, at: path(), in: &scanner)
        try scanner.beginObject()
        var raw = RawSession()
        var seen = Session.FieldSet()
        while let key = try scanner.nextKey() {
            guard let field = Session.CodingKeys(stringValue: key) else {
                try scanner.skipValue()
                continue
            }
            func fieldPath() -> String { "\(path()).\(key)" }
            guard seen.insert(field) else { throw malformed("\(fieldPath()) appears twice") }
            switch field {
            case .id: raw.id = try string(at: fieldPath(), from: &scanner)
            case .title: raw.title = try string(at: fieldPath(), from: &scanner)
            case .url: raw.url = try string(at: fieldPath(), from: &scanner)
            case .fileSize: raw.fileSize = try integer(at: fieldPath(), from: &scanner)
            case .sha256: raw.sha256 = try string(at: fieldPath(), from: &scanner)
            case .essential: raw.essential = try bool(at: fieldPath(), from: &scanner)
            case .thumbnailURL: raw.thumbnailURL = try string(at: fieldPath(), from: &scanner)
            }
        }
        return raw
    }

    // MARK: - Values

    private func string(at path: @autoclosure () -> String, from scanner: inout JSONPullScanner) throws -> String? {
        switch try scanner.peekKind() {
        case .null: try scanner.null(); return nil
        case .string: return try scanner.string()
        case let kind: throw wrongKind(at: path(), expected: "a string", found: kind)
        }
    }

    private func bool(at path: @autoclosure () -> String, from scanner: inout JSONPullScanner) throws -> Bool? {
        switch try scanner.peekKind() {
        case .null: try scanner.null(); return nil
        case .bool: return try scanner.bool()
        case let kind: throw wrongKind(at: path(), expected: "true or false", found: kind)
        }
    }

    private func integer(at path: @autoclosure () -> String, from scanner: inout JSONPullScanner) throws -> Int? {
        switch try scanner.peekKind() {
        case .null:
            try scanner.null()
            return nil
        case .number:
            let text = try scanner.number()
            if let value = Int(text) { return value }
            let isWhole = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            throw malformed("\(path()) should be a whole number, "
                + (isWhole ? "and \(text) does not fit in 64 bits" : "not \(text)"))
        case let kind:
            throw wrongKind(at: path(), expected: "a whole number", found: kind)
        }
    }

    private func expect(_ kind: JSONPullScanner.Kind, at path: @autoclosure () -> String, in scanner: inout JSONPullScanner) throws {
        let found = try scanner.peekKind()
        guard found == kind else { throw wrongKind(at: path(), expected: kind.phrase, found: found) }
    }

    // MARK: - Errors

    private func wrongKind(at path: String, expected: String, found: JSONPullScanner.Kind) -> SessionKitError {
        malformed("\(path) should be \(expected), not \(found.phrase)")
    }

    private func malformed(_ reason: String) -> SessionKitError {
        .malformedManifest(path: source, reason: reason)
    }

    private func notJSON(_ mistake: JSONPullScanner.Mistake) -> SessionKitError {
        .malformedManifest(path: source, reason: "it is not valid JSON: \(mistake)")
    }
}

extension Session {
    /// The fields of one session read so far: bits, where a `Set` allocated for every session.
    struct FieldSet {
        private var bits: UInt8 = 0

        /// Adds a field.
        /// - Returns: `false` when it was read already.
        mutating func insert(_ field: CodingKeys) -> Bool {
            let bit: UInt8 = switch field {
            case .id: 1 << 0
            case .title: 1 << 1
            case .url: 1 << 2
            case .fileSize: 1 << 3
            case .sha256: 1 << 4
            case .essential: 1 << 5
            case .thumbnailURL: 1 << 6
            }
            defer { bits |= bit }
            return bits & bit == 0
        }
    }
}
