/*
Abstract:
An install's progress in its two parts, the app's own download and the essential assets, each in words.
*/

import BackgroundAssetsIPC

/// An install's progress split the way its bar is made: the app's own download, whose size never
/// changes, then the essential assets, each counted on its own.
///
/// One overall "96.0 of 128.0 MiB" would move its total once the extension's real essential sizes
/// replace `BAEssentialDownloadAllowance`, and would hide that most of it is the app; apart, the app's
/// part stays as it is and the essential part says when it is only the allowance.
struct InstallProgressParts: Equatable {
    /// The app's own download (`BAMaxInstallSize` less `BAEssentialMaxInstallSize`).
    var appBytes: Int64
    /// The essential part's bytes done, and in all.
    var essentialDone: Int64
    var essentialTotal: Int64
    /// Whether `essentialTotal` is the essential downloads' own sizes rather than the allowance.
    var sizesKnown: Bool
    /// Whether the essential downloads are asset packs.
    var arePacks: Bool
    /// The essential downloads: finished (or installed), failed, and in all.
    var finished: Int
    var failed: Int
    var count: Int

    /// Splits a progress report.
    /// - Parameter progress: The install's progress; from a service that does not name the app's part,
    ///   all of it counts as essential.
    init(_ progress: InstallProgress) {
        appBytes = max(0, min(progress.appBytes ?? 0, progress.totalBytes))
        essentialTotal = max(0, progress.totalBytes - appBytes)
        essentialDone = max(0, min(essentialTotal, progress.completedBytes - appBytes))
        sizesKnown = progress.essentialSizesKnown
            ?? ![.downloadingApp, .requestingContent].contains(progress.phase)
        arePacks = progress.essentialArePacks ?? false
        finished = progress.essentialFinished
        failed = progress.essentialFailed
        count = progress.essentialTotal
    }

    /// The share of the essential part done, from 0 to 1.
    var essentialFraction: Double {
        essentialTotal > 0 ? Double(essentialDone) / Double(essentialTotal) : 0
    }

    /// `app 96.0 MiB`, and the first time what that part is.
    func app(explained: Bool) -> String? {
        guard appBytes > 0 else { return nil }
        let size = "app \(ByteCountText.describe(appBytes))"
        return explained ? size + " (the app's own download: BAMaxInstallSize less BAEssentialMaxInstallSize)" : size
    }

    /// `essential assets 8.6 of 17.2 MiB, 1 of 2 finished`, `essential packs 0 of 1, 25.2 KiB`,
    /// `essential assets up to 32.0 MiB (…)` while the allowance stands in, or `no essential assets`.
    var essential: String {
        guard sizesKnown else {
            return "essential assets up to \(ByteCountText.describe(essentialTotal)) "
                + "(BAEssentialDownloadAllowance, until the extension returns them)"
        }
        guard count > 0 else { return "no essential assets" }
        let failures = failed > 0 ? ", \(failed) failed" : ""
        if arePacks {
            return "essential packs \(finished) of \(count)\(failures), \(ByteCountText.describe(essentialTotal))"
        }
        return "essential assets \(Self.amount(essentialDone, of: essentialTotal)), \(finished) of \(count) finished"
            + failures
    }

    /// The whole: `app 96.0 MiB + essential assets 8.6 of 17.2 MiB, 1 of 2 finished`.
    func text(explainingApp: Bool) -> String {
        [app(explained: explainingApp), essential].compactMap { $0 }.joined(separator: " + ")
    }

    /// `8.6 of 17.2 MiB`: both in the unit `ByteCountText` gives the total.
    static func amount(_ done: Int64, of total: Int64) -> String {
        let described = ByteCountText.describe(total)
        let divisors: [(unit: String, bytes: Double)] = [("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824)]
        guard let unit = divisors.last(where: { described.hasSuffix(" " + $0.unit) }) else {
            return "\(done) of \(described)"
        }
        let tenths = Int((Double(done) / unit.bytes * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) of \(described)"
    }
}
