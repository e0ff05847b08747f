/*
Abstract:
What `install` says about an install: whether it was an update, and one paragraph on how it went.
*/

import BackgroundAssetsIPC
import Foundation

/// The words `install` prints before and after an install.
enum InstallSummary {
    /// `Installed com.example.App version 1`, `Updated com.example.App from version 1 to 2`,
    /// `Reinstalled com.example.App version 1`, or `com.example.App version 1 is already installing`.
    ///
    /// The service alone decides between an install and an update; the tool tells them apart by
    /// whether the app was installed before, and at which version.
    /// - Parameters:
    ///   - app: The app as the service answered the install.
    ///   - before: The apps installed before, or `nil` when they could not be fetched.
    /// - Returns: A sentence fragment without a full stop.
    static func headline(for app: AppStatus, before: [AppStatus]?) -> String {
        let name = StatusFormatter.shortened(app.bundleIdentifier)
        guard let previous = before?.first(where: { $0.bundleIdentifier == app.bundleIdentifier }) else {
            return "Installed \(name) version \(app.version)"
        }
        if previous.state == .installing, previous.version == app.version {
            return "\(name) version \(app.version) is already installing"
        }
        guard previous.version != app.version else { return "Reinstalled \(name) version \(app.version)" }
        return "Updated \(name) from version \(previous.version) to \(app.version)"
    }

    /// One paragraph on how the install went: the service's own summary when it wrote one, otherwise
    /// one built from the essential downloads' counts.
    /// - Parameter app: The app once it is launchable.
    /// - Returns: A paragraph of full sentences.
    static func paragraph(for app: AppStatus) -> String {
        if let summary = app.installSummary?.trimmingCharacters(in: .whitespacesAndNewlines), !summary.isEmpty {
            return summary
        }
        let progress = app.progress
        let name = "\(StatusFormatter.shortened(app.bundleIdentifier)) version \(app.version)"
        let opening = app.state == .launchable ? "\(name) is launchable." : "\(name) is still installing."
        guard progress.essentialTotal > 0 else {
            return opening + " Its extension asked for no essential downloads, so nothing had to arrive before "
                + "the launch."
        }
        let noun = progress.essentialArePacks == true ? "essential asset pack" : "essential download"
        let total = progress.essentialTotal == 1 ? "its \(noun)" : "its \(progress.essentialTotal) \(noun)s"
        var text = opening
            + " Of \(total), \(progress.essentialFinished) finished and \(progress.essentialFailed) failed"
        let unfinished = progress.essentialTotal - progress.essentialFinished - progress.essentialFailed
        if unfinished > 0 { text += " (\(unfinished) did not end)" }
        text += "."
        if progress.essentialFailed > 0 {
            text += " The app must fetch what failed itself, or the extension can schedule it again in the "
                + "background with removingEssential(); `backgroundassets-debug trace -b \(app.bundleIdentifier)` "
                + "shows why each failed."
        }
        return text
    }

    /// What `install --wait` says of an install that got none of its content, because its manifest
    /// could not be fetched: plainly that nothing was downloaded, why, and how to ask again.
    /// - Parameters:
    ///   - app: The app once it is launchable.
    ///   - headline: The install's headline, such as `Installed com.example.App version 1`.
    ///   - failure: The service's reason, naming the manifest's URL.
    /// - Returns: A paragraph of full sentences.
    static func withoutContent(_ app: AppStatus, headline: String, failure: String) -> String {
        let reason = failure.hasSuffix(".") ? failure : failure + "."
        return "\(headline), without its content. \(reason) Nothing was downloaded for it: the app is launchable, "
            + "and fetches what it needs itself when it is opened. Once the server answers, ask the extension "
            + "again with `backgroundassets-debug simulate --app-install -b \(app.bundleIdentifier)`."
    }
}
