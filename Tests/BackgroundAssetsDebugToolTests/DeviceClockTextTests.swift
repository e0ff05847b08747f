/*
Abstract:
Unit tests of how status, tasks and clock put the device's clock against real time.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Show the device clock")
struct DeviceClockTextTests {
    static let now = Date(timeIntervalSince1970: 1_795_529_222)

    @Test("A clock a day ahead at timeScale 1 says how far, and how to put it back, in words and in pairs")
    func clockAhead() throws {
        let text = DeviceClockText(clock: DeviceClockStatus(
            deviceTime: Self.now.addingTimeInterval(93_600), realTime: Self.now, timeScale: 1))
        #expect(text.statusLine == "Device time: 2026-11-25T16:07:02Z, 1 d 2 h ahead of real time. "
            + "backgroundassets-debug clock --real-time puts it back.")
        #expect(text.statusPairs == "clock device-time=2026-11-25T16:07:02Z real-time=2026-11-24T14:07:02Z ahead=93600 time-scale=1")
        #expect(text.description.contains("1 d 2 h ahead of real time (2026-11-24T14:07:02Z)"))
    }

    @Test("An accelerated clock is shown even before it runs ahead; a clock at real time shows nothing in status")
    func acceleratedAndRealClocks() {
        let accelerated = DeviceClockText(clock: DeviceClockStatus(deviceTime: Self.now, realTime: Self.now, timeScale: 3600))
        #expect(accelerated.statusLine == "Device time: 2026-11-24T14:07:02Z, running at timeScale 3600. "
            + "backgroundassets-debug clock --real-time puts it back.")
        let real = DeviceClockText(clock: DeviceClockStatus(deviceTime: Self.now.addingTimeInterval(0.4), realTime: Self.now, timeScale: 1))
        #expect(real.statusLine == nil)
        #expect(real.statusPairs == nil)
        #expect(real.description == "The device's clock shows real time: 2026-11-24T14:07:02Z.")
        #expect(DeviceClockText.scale(0.5) == "0.5")
    }
}
