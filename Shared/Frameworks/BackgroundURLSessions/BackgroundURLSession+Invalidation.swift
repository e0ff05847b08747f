/*
Abstract:
Ending a background session: at once with its tasks cancelled, or once its tasks have ended.
*/

import Foundation

extension BackgroundURLSession {
    /// Cancels the outstanding tasks, then invalidates the session.
    func cancelTasksAndInvalidate() {
        guard beginInvalidating(finishing: false) else { return }
        // The system cancels the tasks, sends their completions and ends the session's events; the
        // session becomes invalid after the last of them (see receive(_:)).
        guard attachFailure == nil else { return becomeInvalid() }
        let service = service, session = settings.identifier
        Task { await service.invalidate(session: session, cancellingTasks: true) }
    }

    /// Invalidates the session once its outstanding tasks have ended.
    func invalidateWhenTasksEnd() {
        guard beginInvalidating(finishing: true) else { return }
        let service = service, session = settings.identifier
        Task { await service.invalidate(session: session, cancellingTasks: false) }
        whenAttached { [self] in
            if registry.withLock({ $0.tasks.isEmpty }) { becomeInvalid() }
        }
    }

    /// Marks the session as ending; false when it already was.
    private func beginInvalidating(finishing: Bool) -> Bool {
        registry.withLock { registry in
            guard !registry.isInvalidated, !registry.isFinishing || !finishing else { return false }
            registry.isFinishing = true
            return true
        }
    }

    /// The session is invalid: it stops reading events, and the delegate hears it last.
    func becomeInvalid() {
        let first = registry.withLock { registry -> Bool in
            defer { registry.isInvalidated = true }
            return !registry.isInvalidated
        }
        guard first else { return }
        onDelegateQueue { [self] in
            // After the cancellations already queued, then nothing more from this session.
            stopReceiving()
            delegate?.urlSession(self, didBecomeInvalidWithError: nil)
        }
    }
}
