/*
Abstract:
When a change committed to the download queue reaches the disk, and who waits for it.
*/

/// When the rows an insert commits reach the disk.
///
/// Every insert is committed when it returns: the next request sees it, and it survives `kill -9` of
/// the service. What differs is when a power cut can no longer take it back, and who waits for that.
public enum CommitDurability: Sendable, Equatable {
    /// On disk when the insert returns: it syncs the write-ahead log itself.
    case synced
    /// On disk at the next shared sync; the caller's answer waits for it
    /// (``DownloadStore/unsyncedTicket``, ``DownloadStore/whenDurable(through:_:)``), and the
    /// inserts committed meanwhile share that sync.
    case answerWaits
    /// On disk within a second (``WriteAheadLogSyncer/soonDelay``), or at the next sync someone
    /// waits for, whichever comes first; nobody waits for it.
    case soon
}
