/*
Abstract:
The one isolation domain of the service and its parts, as an app's user interface has the main actor.
*/

/// The isolation domain the service and its parts share: the hub, the extension, background-session
/// and notification hosts, the asset-pack coordinator and the periodic checks.
///
/// One domain means a part can run its own timers and watchers: an activity started with
/// `{ @ServiceActor in … }` calls back into the part that started it, with no event sent out to
/// the hub and handed back. Work that blocks (SQLite, the file system, transfers) stays off it, on
/// the stores' and the queue's own threads (``OwnThreadActor``).
///
/// The domain runs on a thread of its own, as the main actor runs on the main thread: a caller that
/// blocks a thread of Swift's cooperative pool (two on a small machine) while it waits for the
/// service's answer, as a synchronous client in the same process does, never holds up the service.
@globalActor
public actor ServiceActor: OwnThreadActor {
    /// The shared instance.
    public static let shared = ServiceActor()

    public nonisolated let thread = ActorThread(name: "backgroundassetsd")
}
