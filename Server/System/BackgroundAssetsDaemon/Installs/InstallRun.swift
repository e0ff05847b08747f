/*
Abstract:
One install or update in progress: its phase, its essential downloads, and the progress the user sees.
*/

import BackgroundAssetsIPC
import Foundation

/// An install (or update) from registration until the app is launchable.
///
/// The progress bar has two parts, as an App Store install does: the app's own download (here
/// instant, since the executables are local), sized `BAMaxInstallSize - BAEssentialMaxInstallSize`,
/// then the essential assets, sized by `BAEssentialDownloadAllowance` until the extension has
/// returned its essential downloads and by their real sizes afterwards.
struct InstallRun: Sendable {
    /// Install or update.
    let kind: ContentRequestKind
    /// The app, and the version being installed.
    let bundleIdentifier: String
    let version: String
    /// The bytes of the app's own download.
    let appShare: Int64
    /// The essential allowance, which sizes the essential part until the real sizes are known.
    let essentialAllowance: Int64
    /// Whether the app has a downloader extension, which downloads more once the app is launchable.
    let hasDownloaderExtension: Bool
    /// What the install is doing.
    var phase: InstallProgress.Phase = .requestingContent
    /// The essential downloads, once the extension returned some.
    var essential: EssentialPhase?
    /// When the extension was asked for downloads, so what it logged since can explain an empty answer.
    var contentRequested: Date?
    /// Asset-pack downloads that ended before the essential phase began: applied to it once it does.
    var packEndsBeforeEssentialPhase: [PackEnd] = []

    /// The end of an asset pack's row: installed, or failed with its reason.
    struct PackEnd: Sendable {
        var rowID: Int64
        var packID: String
        var failure: WireFailure?
    }

    /// Starts the run of an app.
    init(kind: ContentRequestKind, app: InstalledApp) {
        self.kind = kind
        bundleIdentifier = app.bundleIdentifier
        version = app.version
        let plist = app.bundle.app
        appShare = Int64(max(0, plist.maxInstallSize - plist.essentialMaxInstallSize))
        essentialAllowance = Int64(max(0, plist.restrictions.essentialDownloadAllowance))
        hasDownloaderExtension = app.bundle.extension != nil
    }

    /// The progress to show.
    ///
    /// The app's part never changes; the essential part is the allowance until the extension has
    /// returned its essential downloads, their declared sizes from then on, and nothing when the install
    /// completed without any. `essentialSizesKnown` says which, so a reader can tell the two apart.
    var progress: InstallProgress {
        let sizesKnown = essential != nil || phase == .complete
        let essentialTotal = essential?.totalBytes ?? (sizesKnown ? 0 : essentialAllowance)
        let total = appShare.addingSaturated(essentialTotal)
        let done: Int64 = switch phase {
        case .downloadingApp: 0
        case .requestingContent: appShare
        case .downloadingEssentialAssets: appShare.addingSaturated(min(essential?.writtenBytes ?? 0, essentialTotal))
        case .complete: total
        }
        return InstallProgress(
            phase: phase, completedBytes: done, totalBytes: total,
            essentialFinished: essential?.finishedCount ?? 0, essentialFailed: essential?.failedCount ?? 0,
            essentialTotal: essential?.count ?? 0, appBytes: appShare, essentialSizesKnown: sizesKnown,
            essentialArePacks: essential?.arePacks ?? false)
    }

    /// One paragraph on what the install downloaded and what failed.
    func summary(note: String?) -> String {
        let verb = kind == .update ? "Updated" : "Installed"
        var text = "\(verb) \(bundleIdentifier) version \(version)."
        if let essential, essential.count > 0 {
            let sizes = ByteCountText.describe(essential.totalBytes)
            let noun = essential.arePacks ? "essential asset pack(s)" : "essential download(s)"
            text += " \(essential.finishedCount) of \(essential.count) \(noun) (\(sizes)) finished"
            if essential.failedCount == 0 {
                text += "."
            } else {
                let names = essential.failed.map { "\($0.download.identifier) (\($0.failure.message))" }
                    + essential.failedPacks.map { "the asset pack \($0.packID) (\($0.failure.message))" }
                text += "; \(essential.failedCount) failed: \(names.joined(separator: "; "))."
            }
        } else if note == nil {
            text += " The extension returned no essential downloads."
        }
        if let note { text += " " + note }
        text += hasDownloaderExtension
            ? " The app is launchable; its other downloads continue in the background." : " The app is launchable."
        return text
    }
}
