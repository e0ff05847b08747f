/*
Abstract:
What the periodic checks and the Background Tasks runner read to decide when to act, published in one place.
*/

import BackgroundAssetsIPC

/// The device state both schedulers depend on, with one revision for each schedule.
///
/// Every change goes through a mutating method that bumps the revision of each schedule it may move,
/// and only when the value really changed. The service observes the revisions and reschedules, so a
/// new feature that changes what a schedule reads cannot forget to wake it. The records the
/// schedules read publish their own changes: the app registry and the task store tell the service
/// of each write (a ``ServiceNotice``), so no request handler bumps a revision by hand.
struct DeviceState: Sendable, Equatable {
    /// The device settings: power, reachability, Background App Refresh and in-app content gate both schedules.
    private(set) var settings: DeviceSettings
    /// The device's time, which every recorded date and earliest begin date is measured in.
    private(set) var clock: DeviceClock
    /// The apps whose install or update is under way: they get no periodic check and run no task.
    private(set) var installing: Set<String> = []
    /// Whether the service has started; before, the schedules are not running and nothing wakes them.
    private(set) var isStarted = false
    /// Changes whenever the periodic schedule may have moved.
    private(set) var periodicRevision: UInt64 = 0
    /// Changes whenever a pending task may have become ready, or its wake-up time moved.
    private(set) var taskRevision: UInt64 = 0

    init(settings: DeviceSettings, clock: DeviceClock) {
        self.settings = settings
        self.clock = clock
    }

    /// The service has started: both schedules are computed for the first time, from all that
    /// changed while it started (the clock resumed, installs picked up).
    mutating func serviceStarted() {
        isStarted = true
        bumpBoth()
    }

    /// The device settings changed.
    mutating func setSettings(_ settings: DeviceSettings) {
        guard settings != self.settings else { return }
        self.settings = settings
        bumpBoth()
    }

    /// The device clock was resumed or put back to real time.
    mutating func setClock(_ clock: DeviceClock) {
        guard clock != self.clock else { return }
        self.clock = clock
        bumpBoth()
    }

    /// The set of installing apps, as the install lifecycle has it now.
    mutating func setInstalling(_ apps: Set<String>) {
        guard apps != installing else { return }
        installing = apps
        bumpBoth()
    }

    /// An app's record changed in a way the schedules read (``InstalledApp/scheduledFields``):
    /// installed, launched, launchable, checked, uninstalled, or its dates moved, as the app registry
    /// publishes. Refresh tasks read its launches too, so both schedules move.
    mutating func appRecordChanged() { bumpBoth() }

    /// The pending task requests changed (the task store publishes it), or the runner's own launch
    /// handlers, running tasks, queued requests or apps in the foreground did (its `reconsider`
    /// action): only the task runner reads them.
    mutating func tasksChanged() { taskRevision &+= 1 }

    private mutating func bumpBoth() {
        periodicRevision &+= 1
        taskRevision &+= 1
    }
}
