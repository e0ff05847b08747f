/*
Abstract:
What the service's parts tell the hub: the facts another part acts on, through one channel.
*/

import Foundation

/// A fact one part of the service learned that another part acts on, sent to the hub through one
/// ordered channel.
///
/// A part's own timers, readers and watchers run on the service's executor and call back into that
/// part directly; only what crosses to another part travels here. The hub drains the channel from
/// ``BackgroundAssetsService/start()`` on, one notice at a time, in the order they were sent.
enum ServiceNotice: Sendable {
    /// An extension checked in, ran past a deadline or a limit, went idle, or exited: its calls'
    /// lifecycle decides what follows.
    case extensionHost(ExtensionHost.Event)
    /// An app's background sessions need it launched in the background, or are done with its launch.
    case backgroundSessions(BackgroundSessionHost.Notice)
    /// Pack downloads ended after an unpack or a failed fetch again: installs waiting for them move on.
    case assetPacks(AssetPackCoordinator.Notice)
    /// An app's periodic check is due: the hub sends its extension a content request.
    case periodicCheckDue(app: String, deviceTime: Date)
    /// An app's record changed in a way the schedules read (``InstalledApp/scheduledFields``): the
    /// device state publishes it to the periodic checks and the task runner.
    case appRecordChanged
    /// A task request was stored or removed: the device state publishes it to the task runner.
    case taskRequestsChanged
}
