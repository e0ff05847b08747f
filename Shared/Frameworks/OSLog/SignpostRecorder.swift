/*
Abstract:
Where this process's signposts go: a line in the device log, and a line it appends to the device's trace.
*/

import BackgroundAssetsIPC
import Foundation
import ServiceClient
import Synchronization

/// Writes this process's signposts as lines of the device log, through the logger of their
/// subsystem and category, and appends them to `system/trace.jsonl`, beside the service's events, so
/// `backgroundassets-debug trace` lists them and `trace --svg` draws their intervals.
///
/// The service writes every other line of the trace; a signpost never crosses the socket, so the
/// process that emits it writes its own line, with one `write(2)` to a file opened for appending,
/// as the service does, so lines of the two never interleave.
/// - Note: It differs from the service's writer (`ServiceTrace`) in what it may do to the device:
///   it never creates the device root or `system/`, writes only into a root this user owns, and
///   opens the file at its first signpost rather than at start.
final class SignpostRecorder: Sendable {
    /// The trace of the device this process belongs to (`BA_DEVICE_ROOT`, or `.device/`).
    static let shared = SignpostRecorder(paths: .current())

    /// The kinds of signpost line.
    enum Kind {
        case begin, end, event

        var traceEvent: String {
            switch self {
            case .begin: TraceSignpost.beginEvent
            case .end: TraceSignpost.endEvent
            case .event: TraceSignpost.emitEvent
            }
        }
    }

    private let paths: DevicePaths
    /// Whether signposts are also lines of the device log (and standard error), as a logger's are.
    private let writesLogLines: Bool
    /// The open trace; `nil` before the first signpost, -1 when it cannot be written.
    private let descriptor = Mutex<Int32?>(nil)
    /// Who this process is to the trace: its role and its app, found at the first signpost.
    private let identity: Mutex<ProcessIdentity?>

    /// Creates the recorder of a device's signposts.
    /// - Parameters:
    ///   - paths: The device root whose trace gets the lines.
    ///   - writesLogLines: Whether each signpost is also a line of the device log; tests that record
    ///     into a device root of their own turn it off, since the log is this process's.
    ///   - identity: Who the lines say emitted them; this process's identity when `nil`.
    init(paths: DevicePaths, writesLogLines: Bool = true, identity: ProcessIdentity? = nil) {
        self.paths = paths
        self.writesLogLines = writesLogLines
        self.identity = Mutex(identity)
    }

    deinit {
        descriptor.withLock { if let open = $0, open >= 0 { close(open) } }
    }

    /// Writes one signpost's log line and appends its trace line; a trace that cannot be written is
    /// left alone.
    /// - Parameters:
    ///   - kind: Begin, end or event.
    ///   - signpost: Which signpost.
    ///   - log: The log of its subsystem and category.
    ///   - detail: The message and, at an end, how long the interval took.
    func record(_ kind: Kind, _ signpost: TraceSignpost, log: OSLog, detail: String?) {
        if writesLogLines {
            let identifier = signpost.id == OSSignpostID.exclusive.rawValue ? "exclusive" : String(signpost.id)
            Logger(log).write(
                level: .info, "signpost \(kind) \"\(signpost.name)\" id \(identifier)\(detail.map { ": \($0)" } ?? "")")
        }
        let identity = identity.withLock { known in
            if let known { return known }
            let current = ProcessIdentity.current(paths: paths)
            known = current
            return current
        }
        let role = identity.role.rawValue
        let entry = TraceEntry(
            from: role, to: role, event: kind.traceEvent, app: identity.bundleIdentifier, detail: detail,
            signpost: signpost)
        // Tokens in URL queries never reach the trace, as in the service's lines.
        let line = entry.redactedLine
        descriptor.withLock { descriptor in
            if descriptor == nil { descriptor = openTrace() }
            guard let open = descriptor, open >= 0 else { return }
            _ = line.withUnsafeBytes { write(open, $0.baseAddress, $0.count) }
        }
    }

    /// Opens the trace for appending, or returns -1 when this process has no device to write to: no
    /// `system/` folder (a process never creates the device root for a signpost), a root another user
    /// owns, or a link where the trace belongs.
    private func openTrace() -> Int32 {
        guard (try? DeviceRootOwnership.checkRoot(paths)) != nil, (try? DeviceRootOwnership.checkFolders(paths)) != nil,
              FileManager.default.fileExists(atPath: paths.systemDirectory.path)
        else { return -1 }
        return (try? LinkRefusingFile.open(paths.traceFile, flags: O_WRONLY | O_APPEND | O_CREAT)) ?? -1
    }
}
