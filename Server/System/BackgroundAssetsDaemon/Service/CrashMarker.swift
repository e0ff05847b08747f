/*
Abstract:
The marker a crashing service leaves behind, and what the next service reads from it.
*/

import BackgroundAssetsIPC
import CCrashMarker
import Foundation

/// How the previous run of the service ended, when it crashed.
///
/// A download whose response (or whose archive) crashes the service would crash every service that
/// resumes it, and every client of the device would fail with it. The crash handler (C, since a
/// signal handler may only make async-signal-safe calls) writes `system/crashed` with the signal and
/// the name of the crashing thread. Every phase that works on one download on a thread of its own
/// names the thread after the download and the phase while it runs (``threadName(forRow:phase:)``):
/// its transfer and, for an asset pack, its unpack. The next service blames that download and no
/// other; a crash on a thread that named no download blames none. A service stopped by `kill -9`
/// or a power cut leaves no marker: only real crashes count.
struct CrashReport: Sendable, Equatable {
    /// The signal the service died of.
    var signal: Int32
    /// The crashing thread's name, as the kernel keeps it (15 bytes at most).
    var threadName: String?

    /// What a thread named after a download was doing with it.
    enum Phase: String, Sendable, CaseIterable {
        /// Transferring its bytes (and parsing the server's answers).
        case transfer = "dl-"
        /// Checking and unpacking an asset pack's archive.
        case unpack = "up-"

        /// The phase as the download's error names it.
        var activity: String {
            switch self {
            case .transfer: "transferring"
            case .unpack: "unpacking"
            }
        }
    }

    /// The download whose thread crashed and what the thread was doing, or `nil` when the thread
    /// worked on no download.
    var blamed: (rowID: Int64, phase: Phase)? {
        guard let threadName else { return nil }
        for phase in Phase.allCases where threadName.hasPrefix(phase.rawValue) {
            guard let rowID = Int64(threadName.dropFirst(phase.rawValue.count)), rowID > 0 else { return nil }
            return (rowID, phase)
        }
        return nil
    }

    /// The download whose thread crashed, or `nil` when the thread worked on no download.
    var rowID: Int64? { blamed?.rowID }

    /// The name of a thread while it works on a download: the phase's prefix and the row id,
    /// within the kernel's 15 bytes for any id below 10^12.
    static func threadName(forRow rowID: Int64, phase: Phase = .transfer) -> String {
        phase.rawValue + String(rowID)
    }

    /// Reads the marker's text; `nil` when it is not a marker.
    init?(marker text: String) {
        var signal: Int32?
        var thread: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("signal ") { signal = Int32(line.dropFirst(7)) }
            if line.hasPrefix("thread ") { thread = String(line.dropFirst(7)) }
        }
        guard let signal else { return nil }
        self.signal = signal
        threadName = thread
    }

    init(signal: Int32, threadName: String?) {
        self.signal = signal
        self.threadName = threadName
    }

    /// Arms the handler for this process: a crash from now on leaves the marker.
    static func install(for paths: DevicePaths) {
        _ = crash_marker_install(paths.crashMarkerFile.path)
    }

    /// The marker the previous service left, removed so it is read once; `nil` after a clean stop.
    static func take(from paths: DevicePaths) -> CrashReport? {
        let file = paths.crashMarkerFile
        // The marker is 64 bytes; anything larger (or a link) was not written by the handler.
        guard let data = try? LinkRefusingFile.read(file, limit: 256) else { return nil }
        try? FileManager.default.removeItem(at: file)
        return CrashReport(marker: String(decoding: data, as: UTF8.self))
    }

    /// The signal's name, for the log and the download's error.
    var signalName: String {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP (a Swift runtime trap)"
        case SIGFPE: "SIGFPE"
        case SIGABRT: "SIGABRT"
        default: "signal \(signal)"
        }
    }
}
