/*
Abstract:
The service's questions about the queue, answered on a thread of their own from the store's reading connection.
*/

/// Reads the download store for the service while it serves clients: `status`, an app's current
/// downloads, a download by its identifiers. A foreground start's lookup of one row is the exception,
/// read where it is asked from the store's connection for such lookups.
///
/// Reads through the queue would wait for the queue's own work (its writes, each commit, a sync on
/// a slow disk). These go to the store's reading connection on a thread of their own, so a client
/// asking a question is answered from the last commit whatever the queue is writing.
actor DownloadStoreReader: OwnThreadActor {
    nonisolated let thread = ActorThread(name: "store-reader")

    private let store: DownloadStore

    /// Creates a reader of a store.
    init(store: DownloadStore) {
        self.store = store
    }

    /// Runs one read of the store; it must only use the store's reading methods.
    /// - Parameter body: The read.
    /// - Returns: What `body` returns.
    func read<Result: Sendable>(_ body: @Sendable (DownloadStore) throws -> Result) throws -> Result {
        try body(store)
    }

    /// What a foreground start asks before it queues anything, read on the caller's thread from the
    /// store's lookups' connection (``DownloadStore/foregroundStartRows(bundleIdentifier:identifier:uniqueIdentifier:)``).
    nonisolated func foregroundStartRows(
        bundleIdentifier: String, identifier: String, uniqueIdentifier: String
    ) throws -> (active: DownloadRow?, ended: DownloadRow?) {
        try store.foregroundStartRows(bundleIdentifier: bundleIdentifier, identifier: identifier, uniqueIdentifier: uniqueIdentifier)
    }
}
