/*
Abstract:
Which lines a promotion to the foreground is worth: the pause it causes is explained once, then left out.
*/

import SessionKit

/// Decides the lines of downloads promoted to the foreground, for a display that prints one line per event.
///
/// Promoting a download the extension is already running makes the system pause it and carry on from
/// the same byte in the foreground, so every promoted session would report "promoted", "paused" and
/// "downloading" in turn. The first such pause is said with its reason; after that, a promoted session's
/// pause and the resumption that follows it say nothing the promotion did not.
struct PromotionLines {
    /// Sessions promoted whose promotion's pause has not come yet (or never comes, for one that was waiting).
    private var promoted: Set<Session.ID> = []
    /// Sessions whose promotion's pause went unsaid, so the resumption goes unsaid too.
    private var pausedQuietly: Set<Session.ID> = []
    /// Whether a promotion's pause was explained already.
    private var explained = false

    /// The line to print for an event, or `nil` to print none.
    mutating func line(for event: SessionEvent) -> String? {
        switch event {
        case let .downloadStarted(id, promoted: true):
            promoted.insert(id)
        case let .downloadPaused(id) where promoted.contains(id):
            promoted.remove(id)
            guard explained else {
                explained = true
                return "\(id): paused while it moves to the foreground; it carries on from the same byte."
            }
            pausedQuietly.insert(id)
            return nil
        case let .downloadBegan(id):
            // A promoted download that was only waiting begins without a pause: that start is news. It
            // may have begun in the background just before the promotion reached it, so the pause may
            // still come.
            if pausedQuietly.remove(id) != nil { return nil }
        case let .downloaded(id), let .downloadFailed(id, _):
            promoted.remove(id)
            pausedQuietly.remove(id)
        default:
            break
        }
        return event.line
    }
}
