/*
Abstract:
A compiled SQLite statement with typed parameter binding and column reading.
*/

import CSQLite

/// A compiled statement owned by its ``SQLiteDatabase``; bind parameters, then step through rows.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private unowned let database: SQLiteDatabase

    init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// Makes the statement ready to run again, with every parameter unbound (NULL).
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    /// Binds values to the `?` parameters in order; `nil` binds NULL.
    /// - Parameter values: One value for each parameter.
    /// - Returns: The statement, to chain with ``run()`` or ``rows(_:)``.
    @discardableResult
    func bind(_ values: [SQLiteValue?]) throws -> SQLiteStatement {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case nil:
                result = sqlite3_bind_null(statement, index)
            case let .integer(number)?:
                result = sqlite3_bind_int64(statement, index, number)
            case let .real(number)?:
                result = sqlite3_bind_double(statement, index, number)
            case let .text(string)?:
                // Bound by byte count, not as a C string, so text with NUL characters survives whole.
                var bytes = Array(string.utf8)
                if bytes.isEmpty { bytes = [0] }
                let count = Int32(string.utf8.count)
                result = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        sqlite3_bind_text(statement, index, $0.baseAddress, count, SQLiteStatement.transient)
                    }
                }
            }
            try database.check(result, "binding parameter \(index)")
        }
        return self
    }

    /// Runs a statement that returns no rows.
    func run() throws {
        defer { sqlite3_reset(statement) }
        let result = sqlite3_step(statement)
        try database.check(result, "running \(sql)")
    }

    /// Runs a query and maps every row.
    /// - Parameter transform: Reads one row; called once per row, in order.
    /// - Returns: The mapped rows.
    func rows<Row>(_ transform: (SQLiteRow) throws -> Row) throws -> [Row] {
        defer { sqlite3_reset(statement) }
        var rows: [Row] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return rows }
            try database.check(result, "querying \(sql)")
            rows.append(try transform(SQLiteRow(statement: statement)))
        }
    }

    private var sql: String {
        sqlite3_sql(statement).map { String(String(cString: $0).prefix(60)) } ?? "a statement"
    }

    /// `SQLITE_TRANSIENT`, which the C macro defines as the destructor -1: SQLite copies the bytes.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound to a statement parameter.
enum SQLiteValue: Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
}

extension SQLiteValue {
    static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

/// The current row of a query, read by column index.
struct SQLiteRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(statement, column) != 0 }

    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column as text, read by byte count so embedded NUL characters are kept.
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}
