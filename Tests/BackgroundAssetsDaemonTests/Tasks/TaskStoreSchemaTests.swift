/*
Abstract:
Tests that the task store opens like the download queue: versioned migrations, from files made before versions too.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("Task store schema")
struct TaskStoreSchemaTests {
    @Test("A task store made before its schema had versions opens, keeps its rows, and is at the current version")
    func unversionedFileMigrates() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.appending("tasks.sqlite")
        do {
            // What the store wrote before versions: its tables, user_version 0.
            let old = try SQLiteDatabase(path: url.path)
            try old.execute(TaskStore.migrations[0])
            try old.execute("INSERT INTO refresh_runs (app, last_run) VALUES ('com.example.old', 1000)")
            old.close()
        }
        let store = try TaskStore(url: url)
        #expect(try await store.lastRefresh(app: "com.example.old") == Date(timeIntervalSince1970: 1000))
        let reopened = try SQLiteDatabase(path: url.path)
        #expect(try reopened.userVersion() == TaskStore.migrations.count)
    }

    @Test("A task store from a newer service is refused by name, not guessed at")
    func newerFileRefused() throws {
        let folder = try TemporaryDirectory()
        let url = folder.appending("tasks.sqlite")
        let newer = try SQLiteDatabase(path: url.path)
        try newer.execute("PRAGMA user_version = 99")
        newer.close()
        #expect(throws: DaemonError.schemaTooNew(found: 99, supported: TaskStore.migrations.count, path: url.path)) {
            try TaskStore(url: url)
        }
    }
}
