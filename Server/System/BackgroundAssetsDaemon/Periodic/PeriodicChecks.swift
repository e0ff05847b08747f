/*
Abstract:
Periodic content requests: the timer that finds each app's next check by its usage and says when one is due.
*/

import BackgroundAssetsIPC
import Foundation

/// Sends each installed app's extension a periodic content request when its usage-based schedule
/// says one is due: frequently launched apps often, unused ones rarely, none in low-power mode or
/// with Background App Refresh off.
///
/// The behaviour of periodic checks, as ``PeriodicSchedule`` is their rule. The service owns it and
/// calls ``reschedule(_:)`` with what the schedule depends on whenever that changes (an install
/// beginning or ending, a launch, a settings change); between changes the host sleeps on the
/// service's clock until the next check is due, and hands each due app to the service, which
/// records the check and makes the content request.
final class PeriodicChecks {
    /// What the schedule depends on besides each app's record.
    struct Inputs: Sendable {
        /// The device settings: low-power mode and Background App Refresh.
        var settings: DeviceSettings
        /// The device's time, which may run faster than real time.
        var deviceClock: DeviceClock
        /// Apps installing or updating: their periodic checks wait until they are launchable.
        var installing: Set<String>
    }

    /// The rule.
    let schedule = PeriodicSchedule()
    private let registry: AppRegistry
    private let activities: ServiceActivities
    private let due: @Sendable (_ app: String, _ deviceTime: Date) async -> Void
    private var timer: ServiceActivities.Activity?

    /// Creates the host.
    /// - Parameters:
    ///   - registry: The installed apps, whose records hold their launches and last check.
    ///   - activities: The owner of the timer, and the clock it sleeps on.
    ///   - due: Called for each app whose check is due, with the device time it was due at.
    init(
        registry: AppRegistry, activities: ServiceActivities,
        due: @escaping @Sendable (_ app: String, _ deviceTime: Date) async -> Void
    ) {
        self.registry = registry
        self.activities = activities
        self.due = due
    }

    /// Finds the checks due now and sleeps until the next one, starting again from `inputs`.
    func reschedule(_ inputs: Inputs) {
        timer?.cancel()
        let registry = registry
        let schedule = schedule
        let due = due
        let wallClock = activities.wallClock
        timer = activities.run("periodic checks") {
            while !Task.isCancelled {
                // One reading of the clock per pass: the next check is found, and its wake-up bounded,
                // from the time the due ones were found at. Read again before the sleep, a clock that
                // moved past the next check meanwhile put the wake-up a moment past the new time, and
                // the pass slept through the check until the clock moved again.
                let now = wallClock.now
                let device = inputs.deviceClock.deviceTime(at: now)
                for app in await Self.dueApps(registry: registry, schedule: schedule, inputs: inputs, device: device) {
                    await due(app, device)
                }
                guard let next = await Self.nextCheck(registry: registry, schedule: schedule, inputs: inputs, now: now) else {
                    return
                }
                // Never sleep longer than an hour, which also bounds the effect of a clock change.
                try? await wallClock.sleep(until: min(max(next, now.addingTimeInterval(0.001)), now.addingTimeInterval(3600)))
            }
        }
    }

    private static func dueApps(
        registry: AppRegistry, schedule: PeriodicSchedule, inputs: Inputs, device: Date
    ) async -> [String] {
        await registry.apps().apps.compactMap { app in
            guard !inputs.installing.contains(app.bundleIdentifier), app.bundle.extension != nil,
                case let .due(date) = schedule.nextCheck(for: app, settings: inputs.settings, now: device), date <= device
            else { return nil }
            return app.bundleIdentifier
        }
    }

    /// The real time of the earliest periodic check due for any app, or `nil` when none will be.
    static func nextCheck(registry: AppRegistry, schedule: PeriodicSchedule, inputs: Inputs, now: Date) async -> Date? {
        let device = inputs.deviceClock.deviceTime(at: now)
        return await registry.apps().apps.compactMap { app -> Date? in
            guard !inputs.installing.contains(app.bundleIdentifier), app.bundle.extension != nil,
                case let .due(date) = schedule.nextCheck(for: app, settings: inputs.settings, now: device)
            else { return nil }
            return inputs.deviceClock.realTime(at: date)
        }.min()
    }
}
