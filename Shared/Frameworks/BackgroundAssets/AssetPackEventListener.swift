/*
Abstract:
Listens to the system's asset-pack events for the manager, from its first use until the manager goes away.
*/

import AssetPackFormat
import Synchronization

/// Owns the one task that reads the system's events and hands them to the manager in order.
///
/// It holds the manager weakly, so a manager that is no longer used goes away and stops the task.
final class AssetPackEventListener: Sendable {
    private struct State {
        weak var manager: AssetPackManager?
        var task: Task<Void, Never>?
    }

    private let service: any AssetPackService
    private let state = Mutex(State())

    init(service: any AssetPackService) {
        self.service = service
    }

    /// Names the manager that receives the events.
    func deliver(to manager: AssetPackManager) {
        state.withLock { $0.manager = manager }
    }

    /// Starts listening, once.
    ///
    /// The event stream is opened here, synchronously, so a download requested after this returns
    /// cannot finish unseen.
    func start() {
        state.withLock { state in
            guard state.task == nil else { return }
            let events = service.events()
            state.task = Task { [weak self] in
                for await event in events {
                    guard let manager = self?.state.withLock({ $0.manager }) else { return }
                    await manager.handle(event)
                }
            }
        }
    }

    /// Stops listening.
    func stop() {
        state.withLock { $0.task?.cancel() }
    }
}
