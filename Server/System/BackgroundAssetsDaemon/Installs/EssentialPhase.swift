/*
Abstract:
An install's essential phase: which essential downloads are still running, their bytes, and their outcomes.
*/

import BackgroundAssetsIPC
import Foundation

/// The essential downloads of one install or update, from the moment the extension returns them
/// until the last one finished or failed.
///
/// The app is not launchable meanwhile, its other downloads wait, and the outcomes are kept so
/// the extension receives them together once the phase ends.
struct EssentialPhase: Sendable {
    /// A finished essential download and its handed-over file.
    struct Finished: Sendable {
        var rowID: Int64
        var download: DownloadDescriptor
        var file: URL
    }

    /// A failed essential download and its error.
    struct Failed: Sendable {
        var download: DownloadDescriptor
        var failure: WireFailure
    }

    /// The rows still running, with their declared sizes.
    private(set) var remaining: [Int64: Int64]
    /// The bytes written so far by each row.
    private var written: [Int64: Int64] = [:]
    /// The declared bytes of every essential download of the phase.
    let totalBytes: Int64
    /// How many essential downloads the phase started with.
    let count: Int
    /// Whether they are asset packs, which the system downloads for a managed extension, rather than
    /// the downloads an extension returned.
    let arePacks: Bool
    /// The outcomes so far, in the order they happened.
    private(set) var finished: [Finished] = []
    private(set) var failed: [Failed] = []
    /// Essential asset packs installed, and those that failed with their reason: the system's own
    /// downloads, whose outcomes the extension never receives.
    private(set) var installedPacks: [String] = []
    private(set) var failedPacks: [(packID: String, failure: WireFailure)] = []

    /// The essential downloads that ended well: files for the extension, and packs installed.
    var finishedCount: Int { finished.count + installedPacks.count }
    /// The essential downloads that failed.
    var failedCount: Int { failed.count + failedPacks.count }

    /// Starts a phase for the rows of the accepted essential downloads.
    /// - Parameters:
    ///   - rows: Each row id with the download's declared size.
    ///   - arePacks: Whether the rows are essential asset packs.
    init(rows: [(id: Int64, size: Int64)], arePacks: Bool = false) {
        remaining = Dictionary(rows.map { ($0.id, $0.size) }, uniquingKeysWith: { first, _ in first })
        totalBytes = rows.lazy.map { max($0.size, 0) }.saturatedSum()
        count = rows.count
        self.arePacks = arePacks
    }

    /// Whether a row belongs to the phase and has not ended.
    func contains(_ rowID: Int64) -> Bool { remaining[rowID] != nil }

    /// Whether every essential download ended.
    var isComplete: Bool { remaining.isEmpty }

    /// The bytes written by the phase's downloads, ended ones counted in full when they finished.
    var writtenBytes: Int64 { written.values.saturatedSum() }

    /// Records progress of a row.
    mutating func record(rowID: Int64, totalWritten: Int64) {
        guard let size = remaining[rowID] else { return }
        written[rowID] = size > 0 ? min(totalWritten, size) : totalWritten
    }

    /// Records a finished row.
    mutating func finish(rowID: Int64, download: DownloadDescriptor, file: URL) {
        guard let size = remaining.removeValue(forKey: rowID) else { return }
        written[rowID] = max(size, written[rowID] ?? 0)
        finished.append(Finished(rowID: rowID, download: download, file: file))
    }

    /// Records the end of an essential asset pack's row: installed, or failed with its reason.
    mutating func endPack(rowID: Int64, packID: String, failure: WireFailure?) {
        guard let size = remaining.removeValue(forKey: rowID) else { return }
        written[rowID] = size
        if let failure { failedPacks.append((packID, failure)) } else { installedPacks.append(packID) }
    }

    /// Records a failed row; its share counts as done, so the bar still reaches the end.
    mutating func fail(rowID: Int64, download: DownloadDescriptor, failure: WireFailure) {
        guard let size = remaining.removeValue(forKey: rowID) else { return }
        written[rowID] = size
        failed.append(Failed(download: download, failure: failure))
    }
}
