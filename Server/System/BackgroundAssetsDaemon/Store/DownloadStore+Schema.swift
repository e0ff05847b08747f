/*
Abstract:
The queue's schema and its migrations, versioned with `PRAGMA user_version`.
*/

extension DownloadStore {
    /// The schema version this service writes; stores at a higher version are refused, not guessed at.
    public static var schemaVersion: Int { migrations.count }

    /// One script per schema version: `migrations[n]` moves a store from version n to n + 1.
    ///
    /// Scripts are append-only: a released script is never edited, a change is a new script.
    static let migrations: [String] = [
        // Version 1: the download queue.
        """
        CREATE TABLE downloads (
            id INTEGER PRIMARY KEY,
            app_bundle_id TEXT NOT NULL,
            identifier TEXT NOT NULL,
            unique_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            url TEXT NOT NULL,
            request_headers TEXT NOT NULL DEFAULT '{}',
            app_group TEXT NOT NULL,
            file_size INTEGER NOT NULL DEFAULT 0 CHECK (file_size >= 0),
            essential INTEGER NOT NULL DEFAULT 0,
            priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN -1000 AND 1000),
            state INTEGER NOT NULL CHECK (state BETWEEN -1 AND 3),
            foreground INTEGER NOT NULL DEFAULT 0,
            bytes_durable INTEGER NOT NULL DEFAULT 0 CHECK (bytes_durable >= 0),
            expected_length INTEGER,
            etag TEXT,
            last_modified TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error_domain TEXT,
            last_error_code INTEGER,
            last_error_message TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL DEFAULT 0,
            last_progress_at INTEGER
        );
        -- An identifier names one download of an app at a time; ended rows stay for status and history,
        -- and a failed download can be scheduled again (removingEssential() keeps its identifiers).
        CREATE UNIQUE INDEX downloads_active_identifier
            ON downloads (app_bundle_id, identifier) WHERE state BETWEEN 0 AND 2;
        CREATE UNIQUE INDEX downloads_active_unique_id
            ON downloads (unique_id) WHERE state BETWEEN 0 AND 2;
        CREATE INDEX downloads_unique_id ON downloads (unique_id);
        -- The run order, so "next downloads to run" walks the index and stops at its limit.
        CREATE INDEX downloads_run_order
            ON downloads (state, essential DESC, foreground DESC, priority DESC, created_at, id);
        CREATE INDEX downloads_app ON downloads (app_bundle_id, state);
        """,
        // Version 2: the earliest due time (asked after every change to the queue) from an index, not a
        // scan of every waiting row, which made scheduling 10,000 downloads quadratic.
        """
        CREATE INDEX downloads_next_attempt ON downloads (next_attempt_at) WHERE state = 1;
        """,
        // Version 3: progress is the durable length passing its high-water mark (bytes fetched again
        // after a restart from zero are not progress), and the boot that last wrote the staging file
        // (its unsynced bytes are trusted only within that boot).
        """
        ALTER TABLE downloads ADD COLUMN high_water INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE downloads ADD COLUMN written_boot TEXT;
        UPDATE downloads SET high_water = bytes_durable;
        """,
        // Version 4: how many crashes of the service each download's transfer went through, so one
        // that crashes it every time is set aside instead of resumed into the same crash.
        """
        ALTER TABLE downloads ADD COLUMN crashes INTEGER NOT NULL DEFAULT 0;
        """,
        // Version 5: the run order of the waiting downloads that are not parked behind an unreachable
        // origin (ConnectivityWaits), so "next downloads to run" does not walk 10,000 parked rows
        // after every change. The bound is DownloadStore.parkedUntilReachable in milliseconds.
        """
        CREATE INDEX downloads_run_order_unparked
            ON downloads (essential DESC, foreground DESC, priority DESC, created_at, id)
            WHERE state = 1 AND next_attempt_at < 253402300799000;
        """,
        // Version 6: a state change rewrites three pages of the queue instead of seven. The run
        // order's index led with the state, and the app's index ended with it, so each change moved
        // a download's entry in both (two pages each); the next downloads to run come from the
        // index of unparked waiting rows (version 5), an app's current downloads from its active
        // identifiers' index, whose condition they share, and what else asked by state (status
        // counts, the downloads a restart finds transferring) reads the table once. The app's
        // index keeps only the app, which no change moves, for an uninstall's delete.
        """
        DROP INDEX downloads_run_order;
        DROP INDEX downloads_app;
        CREATE INDEX downloads_of_app ON downloads (app_bundle_id);
        """,
    ]
}
