/*
Abstract:
The brake on a crash loop that no download explains: after repeated crashes in a short time, the queue starts paused and says why.
*/

import BackgroundAssetsIPC
import Foundation

/// Remembers when the service crashed, and pauses the queue's work after too many crashes too close
/// together.
///
/// The quarantine (``DownloadQueue/quarantine(after:)``) sets aside the download a crashing thread
/// names. A crash it cannot pin on one download would otherwise bring the device down again at every
/// start, for every client of every app. The brake keeps the service up instead: its transfers (and
/// so the unpacks that follow them) wait until ``window`` has passed since the last crash, while
/// clients connect, `status` answers and says why, and a fixed build can be installed.
struct CrashBrake: Sendable, Equatable {
    /// Crashes within ``window`` that apply the brake.
    static let crashesBeforeBrake = 5
    /// How far back crashes count, and how long after the last one the work stays paused.
    static let window: TimeInterval = 10 * 60

    /// When each recent crash was noticed (the start after it), oldest first.
    private(set) var crashes: [Date]

    /// A brake with the crashes noticed so far.
    init(crashes: [Date] = []) {
        self.crashes = crashes
    }

    /// Records a crash noticed at `now`, forgetting those older than the window.
    mutating func record(at now: Date) {
        crashes = (crashes + [now]).filter { now.timeIntervalSince($0) < Self.window && $0 <= now }
    }

    /// Why the work is paused at `now`, and until when; `nil` when it is not.
    func pause(at now: Date, lastCrash: CrashReport?) -> Pause? {
        let recent = crashes.filter { now.timeIntervalSince($0) < Self.window && $0 <= now }
        guard recent.count >= Self.crashesBeforeBrake, let first = recent.first, let last = recent.last else { return nil }
        let minutes = max(1, Int((last.timeIntervalSince(first) / 60).rounded(.up)))
        let signal = lastCrash.map { " (last with \($0.signalName) on thread \($0.threadName ?? "unknown"))" } ?? ""
        let until = last.addingTimeInterval(Self.window)
        return Pause(until: until, reason:
            "The service crashed \(recent.count) times in \(minutes) minute(s)\(signal) and no single download "
            + "explains it, so its transfers are paused until \(until.formatted(.iso8601)), "
            + "\(Int(Self.window / 60)) minutes after the last crash, instead of crashing again. The backtraces are in "
            + "system/log: fix or uninstall what causes them. `backgroundassets-debug reset --yes` ends the pause "
            + "at once, and empties the queue.")
    }

    /// A pause of the queue's work.
    struct Pause: Sendable, Equatable {
        /// When the work starts again by itself.
        var until: Date
        /// What happened and what to do, as `status` and the log say it.
        var reason: String
    }

    // MARK: - The record on disk

    /// Reads the crashes recorded in `file`; a missing or damaged record is an empty one.
    static func load(from file: URL) -> CrashBrake {
        // The record is a few lines; anything larger (or a link) was not written by the service.
        guard let data = try? LinkRefusingFile.read(file, limit: 4096) else { return CrashBrake() }
        let times = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .compactMap { TimeInterval($0) }.filter(\.isFinite).map(Date.init(timeIntervalSince1970:))
        return CrashBrake(crashes: times.sorted().suffix(crashesBeforeBrake * 2).map { $0 })
    }

    /// Writes the record to `file`.
    /// - Returns: The reason it could not be written, or `nil`.
    func save(to file: URL) -> String? {
        let text = crashes.map { String($0.timeIntervalSince1970) }.joined(separator: "\n") + "\n"
        return AtomicFileWriter.write(Data(text.utf8), to: file, followingFolderLink: false)
    }
}
