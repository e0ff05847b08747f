/*
Abstract:
The device's clock against real time, in words for status and clock, and as key=value pairs or JSON for scripts.
*/

import BackgroundAssetsIPC
import Foundation

/// Says how the device's clock stands against real time.
struct DeviceClockText {
    let clock: DeviceClockStatus

    /// How far ahead the device is, such as `1 d 2 h`.
    var ahead: String { DurationText.duration(clock.secondsAhead) }

    /// For `status` on a terminal: a line only while the clock runs apart from real time.
    var statusLine: String? {
        guard clock.differsFromRealTime else { return nil }
        var line = "Device time: \(clock.deviceTime.formatted(.iso8601))"
        if clock.secondsAhead >= 1 { line += ", \(ahead) ahead of real time" }
        if clock.timeScale != 1 { line += ", running at timeScale \(Self.scale(clock.timeScale))" }
        return line + ". backgroundassets-debug clock --real-time puts it back."
    }

    /// For `status` piped: `clock device-time=... real-time=... ahead=SECONDS time-scale=N`, only
    /// while the clock runs apart from real time.
    var statusPairs: String? {
        guard clock.differsFromRealTime else { return nil }
        return "clock device-time=\(clock.deviceTime.formatted(.iso8601)) real-time=\(clock.realTime.formatted(.iso8601)) "
            + "ahead=\(Int(clock.secondsAhead.rounded())) time-scale=\(Self.scale(clock.timeScale))"
    }

    /// For `clock`: where the device's clock stands.
    var description: String {
        guard clock.differsFromRealTime else {
            return "The device's clock shows real time: \(clock.deviceTime.formatted(.iso8601))."
        }
        var text = "The device's clock shows \(clock.deviceTime.formatted(.iso8601))"
        if clock.secondsAhead >= 1 { text += ", \(ahead) ahead of real time (\(clock.realTime.formatted(.iso8601)))" }
        if clock.timeScale != 1 { text += ", and runs at timeScale \(Self.scale(clock.timeScale)) (config.json)" }
        return text + ". Put it back with backgroundassets-debug clock --real-time."
    }

    /// For `clock --json`: the times in ISO 8601, the time scale, and how many seconds the device is ahead.
    func json() throws -> String {
        try StatusFormatter.json(JSONForm(
            deviceTime: clock.deviceTime, realTime: clock.realTime, timeScale: clock.timeScale,
            secondsAhead: Int(clock.secondsAhead.rounded())))
    }

    /// What `clock --json` prints: the fields the sentence says, under the names `status --json`'s
    /// `deviceClock` gives them, and the lead the sentence counts in days and hours, in whole seconds.
    private struct JSONForm: Encodable {
        let deviceTime: Date
        let realTime: Date
        let timeScale: Double
        let secondsAhead: Int
    }

    /// A time scale without a needless fraction: `3600`, `0.5`.
    static func scale(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
