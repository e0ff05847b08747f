/*
Abstract:
How long an extension entry point may run: the per-call limit, capped by what is left of the app's daily budget.
*/

import Foundation

/// Decides how long the next extension entry point may run, from the per-call limit and the app's daily budget.
///
/// Runtime is the extension process's wall-clock time in real seconds, measured from the call to its
/// return; the budget's day is a UTC day of device time (``RuntimeUsage``), so under an accelerated
/// clock the budget also resets sooner. `backgroundassets-debug simulate` resets the budget, as
/// Apple's tool does.
/// - Note: Apple states neither figure in its documentation; its engineers quote about ten minutes a
///   day, which is the default budget here. The per-call limit is this stand-in's choice.
public struct ExtensionRuntimePolicy: Sendable, Equatable {
    /// The longest one entry point may run, in seconds (`extensionRuntimeLimit`).
    public var entryPointLimit: TimeInterval
    /// The runtime an app's extension may use per day, in seconds (`extensionDailyBudget`).
    public var dailyBudget: TimeInterval

    /// The default per-call limit: one minute.
    public static let defaultEntryPointLimit: TimeInterval = 60
    /// The default daily budget: ten minutes.
    public static let defaultDailyBudget: TimeInterval = 600

    /// Creates a policy.
    /// - Parameters:
    ///   - entryPointLimit: The per-call limit in seconds.
    ///   - dailyBudget: The daily budget in seconds.
    public init(
        entryPointLimit: TimeInterval = ExtensionRuntimePolicy.defaultEntryPointLimit,
        dailyBudget: TimeInterval = ExtensionRuntimePolicy.defaultDailyBudget
    ) {
        self.entryPointLimit = entryPointLimit
        self.dailyBudget = dailyBudget
    }

    /// What the next entry point may do.
    public enum Grant: Sendable, Equatable {
        /// Run for at most this many seconds; the host kills the extension if it takes longer.
        case run(seconds: TimeInterval)
        /// Do not launch the extension: today's budget is spent.
        case budgetExhausted(usedSeconds: TimeInterval)
    }

    /// The time the next entry point of an app's extension may take.
    /// - Parameters:
    ///   - app: The installed app, with its runtime used today.
    ///   - date: The current device time, which picks the day.
    /// - Returns: ``Grant/run(seconds:)`` with the smaller of the per-call limit and the budget left,
    ///   or ``Grant/budgetExhausted(usedSeconds:)``.
    public func grant(for app: InstalledApp, at date: Date) -> Grant {
        let used = app.extensionRuntimeUsed(on: date)
        let left = dailyBudget - used
        // Not finite or not positive means the budget is spent, whatever a bad configuration says.
        guard left.isFinite, left > 0 else { return .budgetExhausted(usedSeconds: used) }
        return .run(seconds: max(0, min(entryPointLimit, left)))
    }

    /// The budget left on a day, never negative, for `backgroundassets-debug status`.
    /// - Parameters:
    ///   - app: The installed app.
    ///   - date: The current device time.
    /// - Returns: Seconds of extension runtime the app may still use that day.
    public func budgetLeft(for app: InstalledApp, at date: Date) -> TimeInterval {
        max(0, dailyBudget - app.extensionRuntimeUsed(on: date))
    }
}
