/*
Abstract:
Puts the device's clock back to real time, and every date recorded in device time back with it.
*/

import Foundation

extension BackgroundAssetsService {
    /// Puts the device's clock back to real time.
    ///
    /// An accelerated clock (`timeScale`) runs ahead of real time, and it never runs backwards, so
    /// after the accelerated run it stays ahead: a day in a minute at 3600. Putting it back moves
    /// every date recorded in device time (installs, launches, periodic checks, refresh tasks and
    /// their requests) back by the same amount, so the schedule keeps its spacing, and starts the
    /// clock again at real time, at the speed `config.json` gives it.
    func resetDeviceClock() async {
        let now = wallClock.now
        let ahead = deviceClock.deviceTime(at: now).timeIntervalSince(now)
        if ahead > 0 {
            for app in await registry.apps().apps {
                _ = try? await registry.update(app.bundleIdentifier) { $0.moveDeviceDates(by: -ahead) }
            }
            do {
                try await taskStore.moveDeviceDates(by: -ahead)
            } catch {
                logger.error("Could not move the Background Tasks dates back with the device clock: \(error)")
            }
        }
        // Published before the trace line, which is stamped with the new device time; the schedules
        // that read the clock and the moved dates follow from it.
        deviceState.setClock(DeviceClock(origin: now, timeScale: configuration.timeScale))
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: "resetDeviceClock",
                           detail: ahead > 0 ? String(format: "device time moved back %.0f s", ahead) : "already real time"))
        logger.info(ahead > 0
            ? String(format: "Put the device clock back to real time, %.0f s back; recorded dates moved with it.", ahead)
            : "The device clock already showed real time.")
    }
}
