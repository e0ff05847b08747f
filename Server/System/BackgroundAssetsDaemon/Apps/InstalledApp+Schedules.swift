/*
Abstract:
The part of an app's record the periodic checks and the Background Tasks runner read.
*/

import Foundation

extension InstalledApp {
    /// What the periodic checks and the Background Tasks runner read of an app's record: its state,
    /// its install and launch dates, its last periodic check and whether it has an extension.
    struct ScheduledFields: Equatable {
        var state: InstallState
        var installDate: Date
        var firstLaunchDate: Date?
        var launchHistory: [Date]
        var lastPeriodicCheck: Date?
        var hasExtension: Bool
    }

    /// The fields whose change moves the schedules; other changes (the allowance, the runtime used)
    /// leave them where they are.
    var scheduledFields: ScheduledFields {
        ScheduledFields(state: state, installDate: installDate, firstLaunchDate: firstLaunchDate, launchHistory: launchHistory,
                        lastPeriodicCheck: lastPeriodicCheck, hasExtension: bundle.extension != nil)
    }
}
