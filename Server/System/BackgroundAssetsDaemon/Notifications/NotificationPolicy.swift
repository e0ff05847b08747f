/*
Abstract:
The device's decisions about local notifications: the answer to an app's question, when requests are due, what is kept.
*/

import BackgroundAssetsIPC
import Foundation

/// Local-notification rules as values: no I/O, no clock.
public enum NotificationPolicy {
    /// The answer the device gives an app that asks to notify: the setting for the app
    /// (`backgroundassets-debug settings --notifications allow|deny -b ID`), else the device's default.
    public static func answer(appSetting: Bool?, deviceDefault: Bool) -> NotificationAuthorizationStatus {
        (appSetting ?? deviceDefault) ? .authorized : .denied
    }

    /// When a request scheduled at `scheduled` is due: at once without a trigger, else after its
    /// interval, or at the next date its components match, on the device's clock. A calendar
    /// trigger that no date will match is due never (`distantFuture`): it stays pending, as Apple's does.
    public static func dueDate(of request: NotificationRequestDescriptor, scheduled: Date) -> Date {
        guard let trigger = request.trigger else { return scheduled }
        return trigger.nextDate(after: scheduled) ?? .distantFuture
    }

    /// When a repeating request that was due at `due` is due again, the first time after `now`: the
    /// times missed while no service ran are one delivery, not a burst.
    public static func nextDueDate(of trigger: NotificationTriggerDescriptor, due: Date, now: Date) -> Date {
        if trigger.dateMatch != nil { return trigger.nextDate(after: now) ?? .distantFuture }
        let missed = max(0, (now.timeIntervalSince(due) / trigger.timeInterval).rounded(.down))
        return due.addingTimeInterval((missed + 1) * trigger.timeInterval)
    }

    /// How many delivered notifications the device keeps per app; older ones are dropped first, as
    /// Notification Center drops them.
    public static let deliveredLimit = 64

    /// Whether an app's answer to `willPresent` (raw `UNNotificationPresentationOptions`) keeps the
    /// notification among the delivered ones (`.list` or `.banner`, or the deprecated `.alert`).
    public static func isListed(presentationOptions: UInt) -> Bool {
        presentationOptions & (4 | 8 | 16) != 0
    }

    /// Whether it is shown on the desktop (`.banner`, or the deprecated `.alert`).
    public static func isShownOnDesktop(presentationOptions: UInt) -> Bool {
        presentationOptions & (4 | 16) != 0
    }
}
