/*
Abstract:
The errors of the system service: its store, and the requests it refuses.
*/

import BackgroundAssetsIPC

/// An error raised by the system service's store and queue.
public enum DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite reported an error.
    case sqlite(code: Int32, message: String, context: String)
    /// The store was written by a newer service whose schema this one does not know.
    case schemaTooNew(found: Int, supported: Int, path: String)
    /// The store at a path could not be opened.
    case cannotOpen(path: String, message: String)
    /// The disk holding a store is full, so SQLite could not write to it.
    case diskFull(path: String, freeBytes: Int64, context: String)
    /// A store's file, or its write-ahead log or shared memory, is a symbolic link, which the service never follows.
    case linkRefused(LinkRefusingFile.Failure)
    /// The app already has a download with this identifier that has not ended.
    case downloadAlreadyScheduled(bundleIdentifier: String, identifier: String)
    /// No download has this row id or unique identifier.
    case downloadNotFound(key: String)
    /// A stored row holds a value this service cannot read.
    case corruptRow(id: Int64, column: String)

    /// A sentence naming the offending value and what to do next.
    public var description: String {
        switch self {
        case let .sqlite(code, message, context):
            "SQLite error \(code) while \(context): \(message). Check the disk (space, permissions) under "
                + "the device root's system/ folder; the service keeps what was committed."
        case let .schemaTooNew(found, supported, path):
            "The queue at \(path) has schema version \(found), but this service knows versions up to \(supported). "
                + "Run the newer backgroundassetsd, or reset the queue with backgroundassets-debug reset."
        case let .diskFull(path, freeBytes, context):
            "The disk holding \(path) is full (\(freeBytes) bytes free) while \(context). Free space on it (for example "
                + "with backgroundassets-debug purge, or by removing files you no longer need) and try again; the "
                + "service keeps what was committed."
        case let .cannotOpen(path, message):
            "The queue at \(path) could not be opened: \(message). Check that the folder exists and is writable."
        case let .linkRefused(failure):
            failure.description
        case let .downloadAlreadyScheduled(bundleIdentifier, identifier):
            "The app \(bundleIdentifier) already has a download \(identifier.debugDescription) in flight. "
                + "Promote or cancel that one instead of scheduling it again."
        case let .downloadNotFound(key):
            "No download \(key) is in the queue; it may have ended or been cancelled. Fetch the current downloads."
        case let .corruptRow(id, column):
            "The queue's download row \(id) has an unreadable \(column). Cancel that download "
                + "(backgroundassets-debug cancel) or reset the queue."
        }
    }
}
