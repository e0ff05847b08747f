/*
Abstract:
The installed apps in `status`: install state, first launch, periodic checks, and the extension's runtime.
*/

import BackgroundAssetsIPC
import Foundation

extension StatusFormatter {
    /// The apps for a terminal: a line per app, then its periodic check, runtime and extension indented below.
    ///
    /// ```
    /// Apps:
    ///   com.example.WWDC-Sessions version 3: installing 42% (downloading essential assets), not launched yet
    ///     next periodic check: in 3 h 12 min
    ///     runtime budget left: 4 min 30 s
    /// ```
    func appSection() -> String {
        guard !status.apps.isEmpty else { return "No apps installed." }
        var lines = ["Apps:"]
        for app in status.apps {
            let launched = app.hasLaunched ? "launched" : "not launched yet"
            let name = "\(Self.shortened(app.bundleIdentifier)) version \(Self.shortened(app.version))"
            lines.append("  \(name): \(Self.state(of: app)), \(launched)")
            lines.append("    next periodic check: \(nextCheck(of: app))")
            // The runtime budget is the extension's; an app installed without one has none to spend.
            if app.hasDownloaderExtension != false {
                lines.append("    runtime budget left: \(DurationText.duration(app.runtimeBudgetLeft))")
            }
            if let pid = app.extensionProcessIdentifier {
                lines.append("    extension: running as pid \(pid)")
            }
            if let termination = app.lastExtensionTermination {
                lines.append("    last forced termination: \(termination)")
            }
            if let ending = app.lastTaskEnding {
                lines.append("    last background task ended: \(ending)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One `key=value` line per app, starting with `bundle-id=`; dates in ISO 8601 and the budget in
    /// seconds, so scripts need not parse "in 3 h 12 min".
    func appLines() -> [String] {
        status.apps.map { app in
            let suspended = app.periodicCheckSuspendedBecause.map(Self.quoted)
            let fields: [(String, String)] = [
                ("bundle-id", Self.shortened(app.bundleIdentifier)),
                ("version", Self.shortened(app.version)),
                ("state", app.state.rawValue),
                ("progress", "\(Self.percent(app.progress))%"),
                ("launched", app.hasLaunched ? "yes" : "no"),
                ("next-check", app.nextPeriodicCheck?.ISO8601Format() ?? suspended.map { _ in "suspended" } ?? "-"),
                ("suspended-because", suspended ?? "-"),
                ("budget-left", app.hasDownloaderExtension == false ? "-" : String(Int(max(0, app.runtimeBudgetLeft).rounded(.down)))),
                ("extension-pid", app.extensionProcessIdentifier.map { String($0) } ?? "-"),
                ("last-termination", app.lastExtensionTermination.map(Self.quoted) ?? "-"),
            ]
            return fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        }
    }

    /// `launchable`, or `installing 42% (downloading essential assets)`.
    static func state(of app: AppStatus) -> String {
        switch app.state {
        case .launchable: "launchable"
        case .installing:
            "installing \(percent(app.progress))% (\(InstallProgressReporter.describe(app.progress.phase)))"
        }
    }

    /// The whole percent done, rounded down so 100% means complete.
    static func percent(_ progress: InstallProgress) -> Int {
        Int((progress.fractionCompleted * 100).rounded(.down))
    }

    /// `in 3 h 12 min`, `due now`, `suspended (low-power mode is on)`, or `none scheduled`.
    private func nextCheck(of app: AppStatus) -> String {
        if let date = app.nextPeriodicCheck { return DurationText.relative(date, now: now) }
        if let reason = app.periodicCheckSuspendedBecause { return "suspended (\(reason))" }
        return "none scheduled"
    }

    /// A free-text value on one line, in quotes with its own quotes and control characters escaped.
    private static func quoted(_ text: String) -> String {
        text.debugDescription
    }
}
